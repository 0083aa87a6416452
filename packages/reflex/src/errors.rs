//! The binding's error catalogue: every error crossing into JavaScript carries one of these codes
//! as `err.code`. A panic (a bug) is no code of the catalogue: it throws `GenericFailure` with the
//! panic's message rather than ending the process (`unless_panic`).

/// An option had a value outside its set (an unknown redaction mode or block level, a lifetime or
/// window under 1 ms, a capacity of 0).
pub const INVALID_OPTION: &str = "REFLEX_ERR_INVALID_OPTION";
/// A cache value is not one JSON document.
pub const INVALID_VALUE: &str = "REFLEX_ERR_INVALID_VALUE";
/// A cache entry is larger than the tier holds.
pub const VALUE_TOO_LARGE: &str = "REFLEX_ERR_VALUE_TOO_LARGE";

/// A JavaScript error whose `code` is `code`.
pub type CodedError = napi::Error<&'static str>;

pub fn invalid_option(message: String) -> CodedError {
    napi::Error::new(INVALID_OPTION, message)
}

pub fn invalid_value(message: String) -> CodedError {
    napi::Error::new(INVALID_VALUE, message)
}

pub fn too_large(message: String) -> CodedError {
    napi::Error::new(VALUE_TOO_LARGE, message)
}

/// `f`'s value, or an error (`GenericFailure`, the panic's message) if it panicked: a panic is a
/// bug, but it must not end the process. Every `#[napi]` export is marked `catch_unwind`, which
/// does this on the calling thread; work on the libuv pool (`Task::compute`) goes through here.
pub fn unless_panic<T>(f: impl FnOnce() -> T) -> napi::Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(napi::bindgen_prelude::panic_to_error)
}
