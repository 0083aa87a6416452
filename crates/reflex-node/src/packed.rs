//! `check`'s result for the TypeScript wrapper to rebuild, without JSON.
//!
//! `JSON.parse` of the attack text's result (~3 KB: fourteen matches, the redacted text) took
//! ~8 µs, almost half the check; JavaScript builds the same objects from numbers in a fraction
//! of a microsecond. So the numbers go into the caller's `Float64Array` (`layout` below), the
//! enumerations as indices into `packedNames()`, and the strings JavaScript does not already hold
//! (the cache key, a redacted text that differs from the text, the suggested arms, a cached
//! value) come back as one string, cut by the lengths in the numbers. Matched texts are slices
//! of the caller's own text: a match's `matched_text` is the text between its offsets.
//!
//! When the result does not fit the array (or names an enumeration value the tables lack, or the
//! text holds U+FFFD, which may stand for a lone surrogate the caller's text still has), the
//! answer is `check`'s JSON instead, `out[0]` is 0 and `out[1]` says how many numbers it needed.

// Without napi's registration (test builds), nothing calls `packed_names`.
#![cfg_attr(test, allow(dead_code))]

use napi_derive::napi;
use reflex_core::engine::CheckOutcome;
use reflex_core::injection::Family;
use reflex_core::pii::PiiKind;
use reflex_core::routing::{Complexity, Route};
use reflex_core::severity::Severity;

use crate::json;
use layout::{
    ARMS_LEN, BLOCKED, CACHED_LEN, COMPLEXITY, CREATED_AT, EXPIRES_AT, FORM, HEADER, INJECTION_COUNT, INJECTION_STRIDE, KEY_LEN,
    NEEDED, PII_COUNT, PII_STRIDE, REDACTED_LEN, ROUTE, SCORE, SEVERITY,
};

/// Where each number goes in the caller's array. Matches follow the header: four numbers per
/// personal-data match (type, start, end, confidence), then five per injection match (type,
/// start, end, severity, confidence).
pub mod layout {
    /// 1: packed; 0: the answer is JSON.
    pub const FORM: usize = 0;
    /// How many numbers the whole result takes.
    pub const NEEDED: usize = 1;
    pub const BLOCKED: usize = 2;
    pub const SCORE: usize = 3;
    pub const SEVERITY: usize = 4;
    pub const ROUTE: usize = 5;
    pub const COMPLEXITY: usize = 6;
    /// Lengths in UTF-16 units of the answer's pieces, in this order; -1: absent (the redacted
    /// text is then the text itself).
    pub const KEY_LEN: usize = 7;
    pub const REDACTED_LEN: usize = 8;
    pub const ARMS_LEN: usize = 9;
    pub const CACHED_LEN: usize = 10;
    pub const CREATED_AT: usize = 11;
    pub const EXPIRES_AT: usize = 12;
    pub const PII_COUNT: usize = 13;
    pub const INJECTION_COUNT: usize = 14;
    pub const HEADER: usize = 15;
    pub const PII_STRIDE: usize = 4;
    pub const INJECTION_STRIDE: usize = 5;
}

const SEVERITIES: [Severity; 5] = [Severity::None, Severity::Low, Severity::Medium, Severity::High, Severity::Critical];
const ROUTES: [Route; 3] = [Route::Cache, Route::Orchestrator, Route::Blocked];
const COMPLEXITIES: [Complexity; 3] = [Complexity::Simple, Complexity::Moderate, Complexity::Complex];

/// The names behind the indices `checkPacked` writes.
#[napi(object)]
pub struct PackedNames {
    pub pii_types: Vec<String>,
    pub families: Vec<String>,
    pub severities: Vec<String>,
    pub routes: Vec<String>,
    pub complexities: Vec<String>,
}

/// The tables `checkPacked`'s indices point into (read once by the wrapper).
#[napi(catch_unwind)]
#[must_use]
pub fn packed_names() -> PackedNames {
    fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<String> {
        all.iter().map(|&v| name(v).to_string()).collect()
    }
    PackedNames {
        pii_types: names(&PiiKind::ALL, PiiKind::as_str),
        families: names(&Family::ALL, Family::as_str),
        severities: names(&SEVERITIES, Severity::as_str),
        routes: names(&ROUTES, Route::as_str),
        complexities: names(&COMPLEXITIES, Complexity::as_str),
    }
}

fn index<T: PartialEq>(all: &[T], v: &T) -> Option<f64> {
    all.iter().position(|x| x == v).map(|i| i as f64)
}

/// A string's length in UTF-16 units.
fn units(s: &str) -> f64 {
    let n = if s.is_ascii() { s.len() } else { s.encode_utf16().count() };
    n as f64
}

/// Writes `o` into `out` and returns the strings, or writes `out[0]` = 0 (and `out[1]`, the
/// numbers it would take) and returns the JSON.
pub fn write(o: &CheckOutcome, text: &str, out: &mut [f64]) -> String {
    let needed = HEADER + o.pii.len() * PII_STRIDE + o.injection.len() * INJECTION_STRIDE;
    let packed = if out.len() >= needed { fill(o, text, out) } else { None };
    let form = if packed.is_some() { 1.0 } else { 0.0 };
    for (at, v) in [(FORM, form), (NEEDED, needed as f64)] {
        if let Some(slot) = out.get_mut(at) {
            *slot = v;
        }
    }
    packed.unwrap_or_else(|| json::check_result(o))
}

/// The whole packed result, or None when an enumeration value has no index or the text may not
/// be the caller's.
fn fill(o: &CheckOutcome, text: &str, out: &mut [f64]) -> Option<String> {
    // napi reads a lone surrogate as U+FFFD: the caller's slices would then differ from the
    // matched and redacted texts, so such a text is answered as JSON.
    if !text.is_ascii() && text.contains('\u{FFFD}') {
        return None;
    }
    out[BLOCKED] = f64::from(u8::from(o.blocked));
    out[SCORE] = f64::from(o.injection_score);
    out[SEVERITY] = index(&SEVERITIES, &o.injection_severity)?;
    out[ROUTE] = index(&ROUTES, &o.routing.route)?;
    out[COMPLEXITY] = index(&COMPLEXITIES, &o.routing.complexity)?;
    out[PII_COUNT] = o.pii.len() as f64;
    out[INJECTION_COUNT] = o.injection.len() as f64;
    let mut at = HEADER;
    for m in &o.pii {
        out[at] = index(&PiiKind::ALL, &m.kind)?;
        out[at + 1] = m.start as f64;
        out[at + 2] = m.end as f64;
        out[at + 3] = f64::from(m.confidence);
        at += PII_STRIDE;
    }
    for m in &o.injection {
        out[at] = index(&Family::ALL, &m.family)?;
        out[at + 1] = m.start as f64;
        out[at + 2] = m.end as f64;
        out[at + 3] = index(&SEVERITIES, &m.severity)?;
        out[at + 4] = f64::from(m.confidence);
        at += INJECTION_STRIDE;
    }

    let redacted = (o.redacted_text != text).then_some(o.redacted_text.as_str());
    let cached = o.cached.as_ref().map(|e| &*e.value);
    let mut s = String::with_capacity(
        o.cache_key.len() + redacted.map_or(0, str::len) + 64 + cached.map_or(0, str::len),
    );
    s.push_str(&o.cache_key);
    out[KEY_LEN] = units(&o.cache_key);
    out[REDACTED_LEN] = redacted.map_or(-1.0, |r| {
        s.push_str(r);
        units(r)
    });
    let arms_at = s.len();
    for (i, arm) in o.routing.suggested_arms.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(arm);
    }
    out[ARMS_LEN] = units(&s[arms_at..]);
    out[CACHED_LEN] = cached.map_or(-1.0, |v| {
        s.push_str(v);
        units(v)
    });
    let (created, expires) = o.cached.as_ref().map_or((0.0, 0.0), |e| (e.created_at_ms as f64, e.expires_at_ms as f64));
    out[CREATED_AT] = created;
    out[EXPIRES_AT] = expires;
    Some(s)
}
