//! A check's JSON form, the one shape every caller sees: the `/api/v1/check` reply's fields, in
//! its order. [`check_result`] writes what the detector found (the embedding API's result);
//! [`check_reply_fields`] adds the cache fields and is what the check endpoint sends. Offsets are
//! UTF-16 code units, so `text.slice(start, end) === matched_text` in JavaScript.
//!
//! ```
//! use reflex_core::detector::{CheckOptions, Detector, DetectorConfig};
//! use reflex_core::reply;
//! let detector = Detector::new(DetectorConfig::default());
//! let json = reply::check_result(&detector.check("mail ada@example.com", CheckOptions::default()));
//! assert!(json.starts_with(r#"{"status":"success","allowed":true,"cache_key":""#));
//! assert!(json.contains(r#""pii_matches":[{"type":"EMAIL","start":5,"end":20,"matched_text":"ada@example.com""#));
//! ```

use crate::cache::Entry;
use crate::decimal::push_uint;
use crate::detector::{Checked, Findings, PiiFinding};
use crate::json;
use crate::routing::Route;

/// The detector's result as a JSON object: `status`, `allowed`, `cache_key`, then the findings.
#[must_use]
pub fn check_result(checked: &Checked) -> String {
    let mut buf = String::with_capacity(512 + 2 * checked.redacted_text.len());
    buf.push('{');
    verdict(&mut buf, checked);
    buf.push_str(",\"cache_key\":");
    json::string(&mut buf, &checked.cache_key);
    findings(&mut buf, checked, false);
    buf.push('}');
    buf
}

/// The check reply's fields after `request_id` and before `processing_time_ms`, each preceded by
/// a comma: the verdict, `cache_hit`, `cache_key`, `cached_value` (the stored JSON as it is) on a
/// hit, the findings, and `routing` (its route `cache` on a hit that is not blocked).
pub fn check_reply_fields(buf: &mut String, checked: &Checked, cached: Option<&Entry>) {
    buf.push(',');
    verdict(buf, checked);
    buf.push_str(if cached.is_some() { ",\"cache_hit\":true,\"cache_key\":" } else { ",\"cache_hit\":false,\"cache_key\":" });
    json::string(buf, &checked.cache_key);
    if let Some(entry) = cached {
        buf.push_str(",\"cached_value\":");
        buf.push_str(&entry.value);
    }
    findings(buf, checked, cached.is_some());
}

/// Room for what [`check_reply_fields`] writes: enough that it seldom grows the buffer.
#[must_use]
pub fn check_reply_room(checked: &Checked, cached: Option<&Entry>) -> usize {
    256 + cached.map_or(0, |e| e.value.len()) + 2 * checked.redacted_text.len() + 128 * (checked.pii.len() + checked.injection.len())
}

/// `{"redacted_text":…,"pii_detected":…,"pii_matches":[…]}`: the `/filter/pii` reply.
#[must_use]
pub fn redact_result(redacted_text: &str, found: &[PiiFinding]) -> String {
    let mut buf = String::with_capacity(128 + 2 * redacted_text.len());
    buf.push_str("{\"redacted_text\":");
    json::string(&mut buf, redacted_text);
    pii(&mut buf, found);
    buf.push('}');
    buf
}

fn verdict(buf: &mut String, f: &Findings) {
    buf.push_str(if f.blocked { "\"status\":\"blocked\",\"allowed\":false" } else { "\"status\":\"success\",\"allowed\":true" });
}

/// The findings' fields and `routing`. The fields before `routing` are written once per findings
/// and kept (`Rendered`): a remembered text shares its findings, so its ~1 KB redacted text is
/// not escaped again on every repeat. Findings seen once are written straight into `buf`.
fn findings(buf: &mut String, checked: &Checked, hit: bool) {
    if checked.memoised {
        buf.push_str(checked.rendered.get_or_init(|| {
            let mut form = String::with_capacity(384 + 2 * checked.redacted_text.len());
            detected(&mut form, checked);
            form
        }));
    } else {
        detected(buf, checked);
    }
    let r = &checked.routing;
    buf.push_str(",\"routing\":{\"route\":\"");
    buf.push_str(if hit && r.route == Route::Orchestrator { Route::Cache.as_str() } else { r.route.as_str() });
    buf.push_str("\",\"complexity\":\"");
    buf.push_str(r.complexity.as_str());
    buf.push_str("\",\"suggested_arms\":[");
    json::strings(buf, &r.suggested_arms);
    buf.push_str("]}");
}

/// `,"type":…,"start":S,"end":E,"matched_text":` of a match, after its `{`.
fn span(buf: &mut String, kind: &str, start: usize, end: usize, text: &str) {
    buf.push_str("{\"type\":\"");
    buf.push_str(kind);
    buf.push_str("\",\"start\":");
    push_uint(buf, start as u64);
    buf.push_str(",\"end\":");
    push_uint(buf, end as u64);
    buf.push_str(",\"matched_text\":");
    json::string(buf, text);
}

fn pii(buf: &mut String, found: &[PiiFinding]) {
    buf.push_str(if found.is_empty() { ",\"pii_detected\":false,\"pii_matches\":[" } else { ",\"pii_detected\":true,\"pii_matches\":[" });
    for (i, m) in found.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        span(buf, m.kind.as_str(), m.start, m.end, &m.matched_text);
        buf.push_str(",\"confidence\":");
        json::score(buf, m.confidence);
        buf.push('}');
    }
    buf.push(']');
}

/// `,"pii_detected":…` to the end of `injection_matches`.
fn detected(buf: &mut String, f: &Findings) {
    pii(buf, &f.pii);
    buf.push_str(",\"redacted_text\":");
    json::string(buf, &f.redacted_text);
    buf.push_str(if f.injection.is_empty() { ",\"injection_detected\":false" } else { ",\"injection_detected\":true" });
    buf.push_str(",\"injection_score\":");
    json::score(buf, f.injection_score);
    buf.push_str(",\"severity\":\"");
    buf.push_str(f.injection_severity.as_str());
    buf.push_str("\",\"injection_matches\":[");
    for (i, m) in f.injection.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        span(buf, m.family.as_str(), m.start, m.end, &m.matched_text);
        buf.push_str(",\"severity\":\"");
        buf.push_str(m.severity.as_str());
        buf.push_str("\",\"confidence\":");
        json::score(buf, m.confidence);
        buf.push('}');
    }
    buf.push(']');
}

#[cfg(test)]
mod tests;
