use super::*;

fn value(cache: &mut Cache, key: &str, now: u64) -> Option<String> {
    cache.get(key, now).map(|e| e.value.to_string())
}

#[test]
fn get_returns_what_set_stored_with_its_timing() {
    let mut cache = Cache::new(10, 1_000);
    assert!(cache.set("k", "v1", 500, 1_000));
    let entry = cache.get("k", 1_200).unwrap();
    assert_eq!(
        entry,
        Entry {
            value: Arc::from("v1"),
            created_at_ms: 1_000,
            expires_at_ms: 1_500
        }
    );
    assert_eq!(value(&mut cache, "nope", 1_200), None);
    let stats = cache.stats();
    assert_eq!(
        (stats.hits, stats.misses, stats.entries, stats.bytes),
        (1, 1, 1, 3)
    );
}

#[test]
fn expired_entries_are_never_returned_and_count_as_expirations() {
    let mut cache = Cache::new(10, 1_000);
    cache.set("k", "v", 100, 0);
    assert_eq!(value(&mut cache, "k", 99).as_deref(), Some("v"));
    assert_eq!(
        value(&mut cache, "k", 100),
        None,
        "expires at created + ttl"
    );
    assert_eq!(value(&mut cache, "k", 101), None);
    let stats = cache.stats();
    assert_eq!(
        (stats.hits, stats.misses, stats.expirations),
        (1, 2, 1),
        "found expired once, then gone"
    );
    assert_eq!((stats.entries, stats.bytes), (0, 0));
}

#[test]
fn set_of_an_existing_key_replaces_it_and_updates_bytes() {
    let mut cache = Cache::new(10, 1_000);
    cache.set("key", "short", 1_000, 0);
    assert_eq!(cache.stats().bytes, 8);
    cache.set("key", "a longer value", 50, 10);
    let entry = cache.get("key", 20).unwrap();
    assert_eq!(&*entry.value, "a longer value");
    assert_eq!(
        (entry.created_at_ms, entry.expires_at_ms),
        (10, 60),
        "ttl restarts"
    );
    let stats = cache.stats();
    assert_eq!((stats.entries, stats.bytes, stats.evictions), (1, 17, 0));
}

#[test]
fn least_recently_used_is_evicted_at_max_entries() {
    let mut cache = Cache::new(3, 1_000);
    for key in ["a", "b", "c"] {
        cache.set(key, "v", 1_000, 0);
    }
    cache.get("a", 1); // a becomes most recent: b is now the LRU
    cache.set("d", "v", 1_000, 2);
    assert_eq!(value(&mut cache, "b", 3), None);
    for key in ["a", "c", "d"] {
        assert!(cache.get(key, 3).is_some(), "{key}");
    }
    let stats = cache.stats();
    assert_eq!(
        (stats.entries, stats.evictions, stats.expirations),
        (3, 1, 0)
    );
}

#[test]
fn bytes_bound_evicts_as_many_as_needed() {
    // Entries of 10 bytes each (1-byte key + 9-byte value) under a 35-byte bound.
    let mut cache = Cache::new(100, 35);
    for key in ["a", "b", "c"] {
        cache.set(key, "123456789", 1_000, 0);
    }
    assert_eq!(cache.stats().bytes, 30);
    // 1 + 24 = 25 bytes: a and b must go to get under 35.
    assert!(cache.set("d", "123456789012345678901234", 1_000, 1));
    assert_eq!(value(&mut cache, "a", 2), None);
    assert_eq!(value(&mut cache, "b", 2), None);
    assert!(cache.get("c", 2).is_some());
    let stats = cache.stats();
    assert_eq!((stats.entries, stats.bytes, stats.evictions), (2, 35, 2));
}

#[test]
fn growing_a_value_in_place_can_evict_others() {
    let mut cache = Cache::new(100, 20);
    cache.set("a", "123456789", 1_000, 0);
    cache.set("b", "123456789", 1_000, 0);
    assert!(cache.set("b", "1234567890123", 1_000, 1));
    assert_eq!(value(&mut cache, "a", 2), None);
    assert_eq!(cache.stats().bytes, 14);
}

#[test]
fn an_entry_larger_than_max_bytes_is_refused() {
    let mut cache = Cache::new(10, 12);
    assert!(cache.set("x", "1", 1_000, 0));
    assert!(
        cache.set("k", "123456789", 1_000, 0),
        "filling max_bytes exactly fits"
    );
    assert_eq!(cache.stats().bytes, 12);
    assert!(!cache.set("k", "123456789012", 1_000, 1));
    assert_eq!(
        value(&mut cache, "k", 2),
        None,
        "refused replace drops the stale value"
    );
    assert_eq!(
        value(&mut cache, "x", 2).as_deref(),
        Some("1"),
        "others untouched"
    );
    let stats = cache.stats();
    assert_eq!((stats.entries, stats.bytes, stats.evictions), (1, 2, 0));
}

#[test]
fn zero_ttl_and_zero_capacity_store_nothing() {
    let mut cache = Cache::new(10, 100);
    assert!(!cache.set("k", "v", 0, 0));
    assert!(cache.is_empty());
    let mut none = Cache::new(0, 100);
    assert!(!none.set("k", "v", 10, 0));
    assert!(none.is_empty());
}

#[test]
fn ttl_max_never_expires() {
    let mut cache = Cache::new(10, 100);
    cache.set("k", "v", u64::MAX, 5);
    assert_eq!(
        cache.get("k", u64::MAX - 1).unwrap().expires_at_ms,
        u64::MAX
    );
}

#[test]
fn delete_reports_live_entries_only() {
    let mut cache = Cache::new(10, 100);
    cache.set("live", "v", 100, 0);
    cache.set("old", "v", 10, 0);
    assert!(cache.delete("live", 50));
    assert!(!cache.delete("live", 50));
    assert!(!cache.delete("old", 50), "expired counts as absent");
    assert!(!cache.delete("never", 50));
    let stats = cache.stats();
    assert_eq!((stats.entries, stats.bytes, stats.expirations), (0, 0, 1));
}

#[test]
fn expired_entries_at_the_lru_end_count_as_expirations_not_evictions() {
    let mut cache = Cache::new(2, 100);
    cache.set("short", "v", 10, 0);
    cache.set("long", "v", 1_000, 0);
    cache.set("new", "v", 1_000, 20);
    let stats = cache.stats();
    assert_eq!(
        (stats.evictions, stats.expirations, stats.entries),
        (0, 1, 2)
    );
    cache.set("newer", "v", 1_000, 30);
    assert_eq!(cache.stats().evictions, 1);
}

#[test]
fn replacing_an_expired_entry_counts_its_expiration() {
    let mut cache = Cache::new(10, 100);
    cache.set("k", "v", 10, 0);
    cache.set("k", "w", 10, 50);
    assert_eq!(cache.stats().expirations, 1);
    assert_eq!(value(&mut cache, "k", 55).as_deref(), Some("w"));
}

#[test]
fn purge_drops_only_expired_entries_and_their_bytes() {
    let mut cache = Cache::new(10, 1_000);
    cache.set("a", "1", 10, 0);
    cache.set("bb", "22", 100, 0);
    cache.set("ccc", "333", 10, 0);
    assert_eq!(cache.purge_expired(50), 2);
    let stats = cache.stats();
    assert_eq!((stats.entries, stats.bytes, stats.expirations), (1, 4, 2));
    assert!(cache.get("bb", 50).is_some());
}

#[test]
fn stats_stay_exact_through_a_mixed_workload() {
    let mut cache = Cache::new(30, 800);
    let mut model: std::collections::HashMap<String, (String, u64)> =
        std::collections::HashMap::new();
    let mut now = 0;
    for i in 0u64..2_000 {
        now += 3;
        let key = format!("k{}", (i * 7919) % 97);
        match i % 5 {
            0 | 1 => {
                let val = "x".repeat(((i * 31) % 60) as usize);
                let ttl = 100 + (i % 7) * 300;
                cache.set(&key, &val, ttl, now);
                model.insert(key, (val, now + ttl));
            }
            2 => {
                cache.delete(&key, now);
                model.remove(&key);
            }
            _ => {
                // Eviction can only lose entries, never invent or resurrect one.
                if let Some(entry) = cache.get(&key, now) {
                    let (val, expires) = &model[&key];
                    assert_eq!(
                        (&*entry.value, entry.expires_at_ms),
                        (val.as_str(), *expires)
                    );
                    assert!(now < *expires);
                }
            }
        }
        let stats = cache.stats();
        assert!(stats.entries <= 30 && stats.bytes <= 800);
    }
    let stats = cache.stats();
    let mut bytes = 0;
    for (key, (val, _)) in &model {
        if cache.map.find(key).is_some() {
            bytes += key.len() + val.len();
        }
    }
    assert_eq!(stats.bytes, bytes as u64);
    assert_eq!(stats.entries, cache.len() as u64);
    assert!(stats.evictions > 0 && stats.expirations > 0, "{stats:?}");
}
