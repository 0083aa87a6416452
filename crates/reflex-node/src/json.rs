//! The `/api/v1/check` response body written straight to a JSON string, so the hot route sends
//! it without building a JavaScript object and stringifying it again. The HTTP layer adds
//! `request_id` in front and `processing_time_ms` at the end.

use std::fmt::Write as _;

use reflex_core::engine::CheckOutcome;

/// Writes `s` as a JSON string literal (quotes and escapes included).
fn string(buf: &mut String, s: &str) {
    buf.push('"');
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        buf.push_str(&s[from..i]);
        if escape.is_empty() {
            let _ = write!(buf, "\\u{b:04x}");
        } else {
            buf.push_str(escape);
        }
        from = i + 1;
    }
    buf.push_str(&s[from..]);
    buf.push('"');
}

/// Confidence and score with three decimals: enough for a 0..1 figure, short on the wire.
fn number(buf: &mut String, x: f32) {
    let rounded = (f64::from(x) * 1000.0).round() / 1000.0;
    let _ = write!(buf, "{rounded}");
}

/// The check body without its closing brace: `{"status":…,"routing":{…}` — the caller appends
/// `,"processing_time_ms":N}`. `cached_value` is spliced raw: the service only ever stores
/// serialised JSON in the cache.
pub fn check_body(o: &CheckOutcome) -> String {
    let mut buf = String::with_capacity(512 + o.redacted_text.len() * 2);
    let allowed = !o.blocked;
    buf.push_str(if allowed { "{\"status\":\"success\",\"allowed\":true" } else { "{\"status\":\"blocked\",\"allowed\":false" });
    buf.push_str(",\"cache_hit\":");
    buf.push_str(if o.cached.is_some() { "true" } else { "false" });
    buf.push_str(",\"cache_key\":");
    string(&mut buf, &o.cache_key);
    if let Some(entry) = &o.cached {
        buf.push_str(",\"cached_value\":");
        buf.push_str(&entry.value);
    }
    buf.push_str(",\"pii_detected\":");
    buf.push_str(if o.pii.is_empty() { "false" } else { "true" });
    buf.push_str(",\"pii_matches\":[");
    for (i, m) in o.pii.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push_str("{\"type\":\"");
        buf.push_str(m.kind.as_str());
        let _ = write!(buf, "\",\"start\":{},\"end\":{},\"matched_text\":", m.start, m.end);
        string(&mut buf, &m.matched_text);
        buf.push_str(",\"confidence\":");
        number(&mut buf, m.confidence);
        buf.push('}');
    }
    buf.push_str("],\"redacted_text\":");
    string(&mut buf, &o.redacted_text);
    buf.push_str(",\"injection_detected\":");
    buf.push_str(if o.injection.is_empty() { "false" } else { "true" });
    buf.push_str(",\"injection_score\":");
    number(&mut buf, o.injection_score);
    buf.push_str(",\"severity\":\"");
    buf.push_str(o.injection_severity.as_str());
    buf.push_str("\",\"injection_matches\":[");
    for (i, m) in o.injection.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push_str("{\"type\":\"");
        buf.push_str(m.family.as_str());
        let _ = write!(buf, "\",\"start\":{},\"end\":{},\"matched_text\":", m.start, m.end);
        string(&mut buf, &m.matched_text);
        buf.push_str(",\"severity\":\"");
        buf.push_str(m.severity.as_str());
        buf.push_str("\",\"confidence\":");
        number(&mut buf, m.confidence);
        buf.push('}');
    }
    buf.push_str("],\"routing\":{\"route\":\"");
    buf.push_str(o.routing.route.as_str());
    buf.push_str("\",\"complexity\":\"");
    buf.push_str(o.routing.complexity.as_str());
    buf.push_str("\",\"suggested_arms\":[");
    for (i, arm) in o.routing.suggested_arms.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        string(&mut buf, arm);
    }
    buf.push_str("]}");
    buf
}
