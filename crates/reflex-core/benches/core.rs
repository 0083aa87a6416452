//! Hot-path costs of the non-detector parts of a check: cache key, cache, rate limit, routing.
//! Run with `cargo bench -p reflex-core --bench core`; the whole check budget is 20 µs per KB.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use reflex_core::cache::Cache;
use reflex_core::normalize::cache_key;
use reflex_core::ratelimit::{Limit, RateLimiter};
use reflex_core::routing::route;

/// Repeats `unit` until the text is about 1 KB, cut at a char boundary.
fn one_kb(unit: &str) -> String {
    let mut text = unit.repeat(1_024 / unit.len() + 1);
    let mut end = 1_024;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
}

fn bench_cache_key(c: &mut Criterion) {
    let ascii = one_kb("Please Summarise the  Quarterly report,\tthen EMAIL it to the team.\n");
    // Accented and CJK text is already NFKC: the quick check lets it skip decomposition.
    let composed = one_kb("Résumé des données trimestrielles — 東京の天気は？ ");
    // Full-width letters and ligatures need the NFKC decomposer.
    let compat = one_kb("Ｐｌｅａｓｅ ﬁnd the ﬁle № Ⅻ ");
    let mut group = c.benchmark_group("cache_key");
    group.bench_function("1KB ascii", |b| b.iter(|| cache_key(black_box(&ascii), 3)));
    group.bench_function("1KB non-ascii, already NFKC", |b| {
        b.iter(|| cache_key(black_box(&composed), 3));
    });
    group.bench_function("1KB non-ascii, needs NFKC", |b| {
        b.iter(|| cache_key(black_box(&compat), 3));
    });
    group.finish();
}

fn bench_cache(c: &mut Criterion) {
    const N: usize = 10_000;
    let keys: Vec<String> = (0..N)
        .map(|i| cache_key(&format!("request {i}"), 3))
        .collect();
    let value = "{\"result\":\"".to_string() + &"x".repeat(200) + "\"}";
    let mut cache = Cache::new(N, 64 << 20);
    for key in &keys {
        cache.set(key, &value, 3_600_000, 0);
    }
    let missing = cache_key("never stored", 3);
    let mut group = c.benchmark_group("cache");
    let mut i = 0;
    group.bench_function("get hit", |b| {
        b.iter(|| {
            i = (i + 7_919) % N;
            black_box(cache.get(black_box(&keys[i]), 1_000))
        });
    });
    group.bench_function("get miss", |b| {
        b.iter(|| black_box(cache.get(black_box(&missing), 1_000)));
    });
    group.bench_function("set replace", |b| {
        b.iter(|| {
            i = (i + 7_919) % N;
            cache.set(black_box(&keys[i]), black_box(&value), 3_600_000, 1_000)
        });
    });
    // A full cache cycling through twice its size in keys: every set inserts a key evicted
    // long ago and evicts the least recently used one.
    let fresh: Vec<String> = (0..2 * N)
        .map(|i| cache_key(&format!("fresh {i}"), 3))
        .collect();
    let mut j = 0;
    group.bench_function("set new + evict", |b| {
        b.iter(|| {
            j = (j + 1) % (2 * N);
            cache.set(black_box(&fresh[j]), black_box(&value), 3_600_000, 1_000)
        });
    });
    group.finish();
}

fn bench_ratelimit(c: &mut Criterion) {
    const N: usize = 10_000;
    let users: Vec<String> = (0..N).map(|i| format!("user-{i}")).collect();
    let limit = Limit {
        capacity: 100,
        window_ms: 60_000,
    };
    let mut limiter = RateLimiter::new(N);
    for user in &users {
        limiter.take(user, limit, 1, 0);
    }
    let mut group = c.benchmark_group("ratelimit");
    let mut i = 0;
    let mut now = 0;
    group.bench_function("take existing key", |b| {
        b.iter(|| {
            i = (i + 7_919) % N;
            now += 1;
            black_box(limiter.take(black_box(&users[i]), limit, 1, now))
        });
    });
    // Every call a new key into a full limiter whose buckets all owe tokens: the worst case.
    let mut n = 0u64;
    let strangers: Vec<String> = (0..N).map(|i| format!("stranger-{i}")).collect();
    group.bench_function("take new key, full limiter", |b| {
        b.iter(|| {
            n += 1;
            let key = &strangers[(n as usize) % N];
            black_box(limiter.take(key, limit, 1, now))
        });
    });
    group.finish();
}

fn bench_route(c: &mut Criterion) {
    let text = one_kb(
        "Search the knowledge base for the outage report, then run the diagnostics \
         command and fix the bug in the retry function. Finally verify it.\n- step\n",
    );
    c.bench_function("route 1KB", |b| {
        b.iter(|| route(black_box(&text), false, false, false));
    });
}

criterion_group!(
    benches,
    bench_cache_key,
    bench_cache,
    bench_ratelimit,
    bench_route
);
criterion_main!(benches);
