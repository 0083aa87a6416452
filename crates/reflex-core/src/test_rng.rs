//! A seeded xorshift64 generator for the randomised tests: the same sequence on every run.

/// Each call steps `seed` and returns the new value.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
