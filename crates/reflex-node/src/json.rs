//! The `/api/v1/check` response body written straight to a JSON string, so the hot route sends
//! it without building a JavaScript object and stringifying it again. The HTTP layer adds
//! `request_id` in front and `processing_time_ms` at the end.

use std::fmt::Write as _;

use reflex_core::engine::CheckOutcome;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// True when one of the eight bytes of `w` needs escaping: a quote, a backslash or a control
/// byte. Exact for bytes below 0x80 and may say yes for others (UTF-8 continuation bytes), which
/// only sends the chunk to the byte loop.
pub(crate) fn needs_escape(w: u64) -> bool {
    // The classic zero-byte test, on w ^ '"' and w ^ '\\', and "below 0x20" as w - 0x20 borrowing.
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let below = w.wrapping_sub(0x20 * ONES) & !w & HIGHS;
    (has_zero(w ^ (u64::from(b'"') * ONES)) | has_zero(w ^ (u64::from(b'\\') * ONES)) | below) != 0
}

/// Writes `s` as a JSON string literal (quotes and escapes included). Text that needs no escape
/// (most of it) is copied eight bytes at a time: the redacted text is the longest field of a
/// check body and the byte loop was a visible share of a check (bench/RESULTS.md).
pub(crate) fn string(buf: &mut String, s: &str) {
    buf.push('"');
    let bytes = s.as_bytes();
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        if let Some(chunk) = bytes.get(i..i + 8) {
            let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            if !needs_escape(w) {
                i += 8;
                continue;
            }
        }
        let escape = match bytes[i] {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => {
                i += 1;
                continue;
            }
        };
        // `from..i` ends before an ASCII byte, so it is a char boundary.
        buf.push_str(&s[from..i]);
        if escape.is_empty() {
            let _ = write!(buf, "\\u{:04x}", bytes[i]);
        } else {
            buf.push_str(escape);
        }
        i += 1;
        from = i;
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

/// A JavaScript number as `JSON.parse` reads it back: Rust prints the shortest digits that round-trip.
/// The values written here (confidences, scores, timestamps) are finite.
fn exact(buf: &mut String, x: f64) {
    let _ = write!(buf, "{x}");
}

/// `check`'s result (`CheckResult` in `convert.rs`) as JSON: the same fields, names, order (`cached`
/// last, as napi-rs sets it) and numbers, for the TypeScript wrapper to `JSON.parse`. Building the nested objects through
/// napi cost more than the check's fixed cost; one string and `JSON.parse` cost a fraction.
pub fn check_result(o: &CheckOutcome) -> String {
    let mut buf = String::with_capacity(512 + o.redacted_text.len() * 2);
    buf.push_str("{\"cacheKey\":");
    string(&mut buf, &o.cache_key);
    buf.push_str(",\"piiMatches\":[");
    for (i, m) in o.pii.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push_str("{\"type\":\"");
        buf.push_str(m.kind.as_str());
        let _ = write!(buf, "\",\"start\":{},\"end\":{},\"matchedText\":", m.start as u32, m.end as u32);
        string(&mut buf, &m.matched_text);
        buf.push_str(",\"confidence\":");
        exact(&mut buf, f64::from(m.confidence));
        buf.push('}');
    }
    buf.push_str("],\"redactedText\":");
    string(&mut buf, &o.redacted_text);
    buf.push_str(",\"injectionScore\":");
    exact(&mut buf, f64::from(o.injection_score));
    buf.push_str(",\"severity\":\"");
    buf.push_str(o.injection_severity.as_str());
    buf.push_str("\",\"injectionMatches\":[");
    for (i, m) in o.injection.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push_str("{\"type\":\"");
        buf.push_str(m.family.as_str());
        let _ = write!(buf, "\",\"start\":{},\"end\":{},\"matchedText\":", m.start as u32, m.end as u32);
        string(&mut buf, &m.matched_text);
        buf.push_str(",\"severity\":\"");
        buf.push_str(m.severity.as_str());
        buf.push_str("\",\"confidence\":");
        exact(&mut buf, f64::from(m.confidence));
        buf.push('}');
    }
    buf.push_str("],\"blocked\":");
    buf.push_str(if o.blocked { "true" } else { "false" });
    buf.push_str(",\"routing\":{\"route\":\"");
    buf.push_str(o.routing.route.as_str());
    buf.push_str("\",\"complexity\":\"");
    buf.push_str(o.routing.complexity.as_str());
    buf.push_str("\",\"suggestedArms\":[");
    for (i, arm) in o.routing.suggested_arms.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        string(&mut buf, arm);
    }
    buf.push_str("]}");
    // Last, where napi-rs puts an optional field that is set.
    if let Some(entry) = &o.cached {
        buf.push_str(",\"cached\":{\"value\":");
        string(&mut buf, &entry.value);
        buf.push_str(",\"createdAtMs\":");
        exact(&mut buf, entry.created_at_ms as f64);
        buf.push_str(",\"expiresAtMs\":");
        exact(&mut buf, entry.expires_at_ms as f64);
        buf.push('}');
    }
    buf.push('}');
    buf
}

#[cfg(test)]
mod tests {
    use super::string;

    fn quoted(s: &str) -> String {
        let mut buf = String::new();
        string(&mut buf, s);
        buf
    }

    #[test]
    fn escapes_like_the_byte_loop() {
        assert_eq!(quoted("plain text that is longer than eight bytes"), "\"plain text that is longer than eight bytes\"");
        assert_eq!(quoted("a\"b\\c\nd\re\tf\u{1}g"), "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\"");
        assert_eq!(quoted("0123456\"89abcdef\u{1f}"), "\"0123456\\\"89abcdef\\u001f\"");
        assert_eq!(quoted("naïve café — 東京 \"q\" ✓"), "\"naïve café — 東京 \\\"q\\\" ✓\"");
        assert_eq!(quoted(""), "\"\"");
        // Every byte value below 0x80, at every position of a chunk.
        for b in 0u8..0x80 {
            for pad in 0..9 {
                let s = format!("{}{}xyz", "a".repeat(pad), char::from(b));
                let expected = match b {
                    b'"' => "\\\"".to_string(),
                    b'\\' => "\\\\".to_string(),
                    b'\n' => "\\n".to_string(),
                    b'\r' => "\\r".to_string(),
                    b'\t' => "\\t".to_string(),
                    0..=0x1f => format!("\\u{b:04x}"),
                    _ => char::from(b).to_string(),
                };
                assert_eq!(quoted(&s), format!("\"{}{expected}xyz\"", "a".repeat(pad)));
            }
        }
    }
}
