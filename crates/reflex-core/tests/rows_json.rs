//! The plain TypeScript baseline of the addon bench runs the core's pattern rows from
//! `bench/baseline/same/rows.json`: that file must be what `examples/rules_dump.rs` prints now,
//! or the bench compares the addon with other rows than its own.

#[path = "../examples/rules_dump.rs"]
mod rules_dump;

#[test]
fn the_baselines_rows_are_the_cores() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/baseline/same/rows.json");
    let committed = std::fs::read_to_string(path).expect("bench/baseline/same/rows.json");
    assert!(
        committed == rules_dump::rows_json(),
        "bench/baseline/same/rows.json is stale: cargo run --release -q -p reflex-core --example rules_dump > bench/baseline/same/rows.json"
    );
}
