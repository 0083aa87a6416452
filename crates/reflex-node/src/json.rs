//! The `/api/v1/check` response body written straight to a JSON string, so the hot route sends
//! it without building a JavaScript object and stringifying it again. The HTTP layer adds
//! `request_id` in front and `processing_time_ms` at the end.

use std::fmt::Write as _;

use reflex_core::decimal::push_uint as uint;
use reflex_core::engine::{CheckOutcome, Findings};

use crate::plain::plain_len;

/// Writes `s` as a JSON string literal (quotes and escapes included), plain runs whole.
pub(crate) fn string(buf: &mut String, s: &str) {
    buf.push('"');
    let bytes = s.as_bytes();
    let mut from = 0;
    loop {
        // `plain_len` stops on an ASCII byte or the end, so `i` is a char boundary.
        let i = from + plain_len(&bytes[from..]);
        buf.push_str(&s[from..i]);
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'"' => buf.push_str("\\\""),
            b'\\' => buf.push_str("\\\\"),
            b'\n' => buf.push_str("\\n"),
            b'\r' => buf.push_str("\\r"),
            b'\t' => buf.push_str("\\t"),
            _ => {
                let _ = write!(buf, "\\u{b:04x}");
            }
        }
        from = i + 1;
    }
    buf.push('"');
}

/// `items` as JSON strings separated by commas: a JSON array's inside.
fn strings(buf: &mut String, items: &[&str]) {
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        string(buf, s);
    }
}

/// A duration in milliseconds with three decimals, as `{:.3}` (and `toFixed(3)`) write it, for
/// `processing_time_ms`: digit by digit, as `{:.3}` cost more than the rest of a memoised hit's
/// body. Negative or NaN is 0 (`max` drops NaN); a value too large to be a duration, infinity
/// included, goes through `{:.3}`.
pub(crate) fn millis(buf: &mut String, ms: f64) {
    let ms = ms.max(0.0);
    let thousandths = (ms * 1000.0).round();
    if thousandths >= 1e15 {
        let _ = write!(buf, "{ms:.3}");
        return;
    }
    #[allow(clippy::cast_sign_loss)] // 0 <= thousandths < 1e15
    let t = thousandths as u64;
    uint(buf, t / 1000);
    let frac = t % 1000;
    buf.push('.');
    buf.push(char::from(b'0' + (frac / 100) as u8));
    buf.push(char::from(b'0' + (frac / 10 % 10) as u8));
    buf.push(char::from(b'0' + (frac % 10) as u8));
}

/// Confidence and score with three decimals: enough for a 0..1 figure, short on the wire. Written
/// as `{}` writes `round(x * 1000) / 1000` (the shortest digits that read back as that double, so
/// no trailing zeros, and no point for a whole number): for a count `t` of thousandths that is the
/// digits of `t / 1000`, a point and `t % 1000` with its trailing zeros dropped, because no shorter
/// decimal lies as near the double. Anything else (negative, NaN, huge) goes through `{}`.
fn number(buf: &mut String, x: f32) {
    let thousandths = (f64::from(x) * 1000.0).round();
    if !(0.0..1e15).contains(&thousandths) || thousandths.is_sign_negative() {
        let _ = write!(buf, "{}", thousandths / 1000.0);
        return;
    }
    #[allow(clippy::cast_sign_loss)] // 0 <= thousandths < 1e15
    let t = thousandths as u64;
    uint(buf, t / 1000);
    let mut frac = t % 1000;
    if frac == 0 {
        return;
    }
    buf.push('.');
    let mut scale = 100;
    while frac != 0 {
        buf.push(char::from(b'0' + (frac / scale) as u8));
        frac %= scale;
        scale /= 10;
    }
}

/// The check body without its closing brace: `{"status":…,"routing":{…}` — the caller appends
/// `,"processing_time_ms":N}`.
pub fn check_body(o: &CheckOutcome) -> String {
    let mut buf = String::with_capacity(1 + check_fields_room(o));
    buf.push('{');
    check_fields(&mut buf, o);
    buf
}

/// `check_body` after its `{`. `cached_value` is spliced raw: the service only ever stores
/// serialised JSON in the cache. A hit's findings are serialised once and kept
/// (`findings_body`): the memo shares them with later hits. A miss's are never memoised, so they
/// are written straight into `buf`: keeping them cost an allocation, a shrink and a copy of the
/// ~1 KB form per miss.
pub fn check_fields(buf: &mut String, o: &CheckOutcome) {
    buf.push_str(if o.blocked { "\"status\":\"blocked\",\"allowed\":false" } else { "\"status\":\"success\",\"allowed\":true" });
    buf.push_str(",\"cache_hit\":");
    buf.push_str(if o.cached.is_some() { "true" } else { "false" });
    buf.push_str(",\"cache_key\":");
    string(buf, &o.cache_key);
    match &o.cached {
        Some(entry) => {
            buf.push_str(",\"cached_value\":");
            buf.push_str(&entry.value);
            buf.push_str(findings_body(o));
        }
        None => write_findings(buf, &o.found),
    }
}

/// Room for what `check_fields` writes: enough that it seldom grows the buffer.
pub fn check_fields_room(o: &CheckOutcome) -> usize {
    160 + match &o.cached {
        Some(entry) => entry.value.len() + findings_body(o).len(),
        None => 384 + 2 * o.redacted_text.len(),
    }
}

/// The check body's fields that come from the findings alone, `,"pii_detected":…` to the end of
/// `routing`. Written once per findings (`Rendered`): a memoised hit shares its findings, so its
/// ~1 KB redacted text is not escaped again on every hit.
pub fn findings_body(o: &CheckOutcome) -> &str {
    o.rendered.get_or_init(|| render_findings(&o.found))
}

/// `","start":S,"end":E,"matched_text":`, after a match's type.
fn offsets(buf: &mut String, start: usize, end: usize) {
    buf.push_str("\",\"start\":");
    uint(buf, start as u64);
    buf.push_str(",\"end\":");
    uint(buf, end as u64);
    buf.push_str(",\"matched_text\":");
}

fn render_findings(f: &Findings) -> String {
    let mut buf = String::with_capacity(384 + f.redacted_text.len() * 2);
    write_findings(&mut buf, f);
    buf
}

/// `findings_body`'s fields written straight into `buf`, for findings serialised only once (a
/// miss's: only hits are memoised), which then skip the stored form's allocation and copy.
fn write_findings(buf: &mut String, f: &Findings) {
    buf.push_str(",\"pii_detected\":");
    buf.push_str(if f.pii.is_empty() { "false" } else { "true" });
    buf.push_str(",\"pii_matches\":[");
    for (i, m) in f.pii.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push_str("{\"type\":\"");
        buf.push_str(m.kind.as_str());
        offsets(buf, m.start, m.end);
        string(buf, &m.matched_text);
        buf.push_str(",\"confidence\":");
        number(buf, m.confidence);
        buf.push('}');
    }
    buf.push_str("],\"redacted_text\":");
    string(buf, &f.redacted_text);
    buf.push_str(",\"injection_detected\":");
    buf.push_str(if f.injection.is_empty() { "false" } else { "true" });
    buf.push_str(",\"injection_score\":");
    number(buf, f.injection_score);
    buf.push_str(",\"severity\":\"");
    buf.push_str(f.injection_severity.as_str());
    buf.push_str("\",\"injection_matches\":[");
    for (i, m) in f.injection.iter().enumerate() {
        if i > 0 {
            buf.push(',');
        }
        buf.push_str("{\"type\":\"");
        buf.push_str(m.family.as_str());
        offsets(buf, m.start, m.end);
        string(buf, &m.matched_text);
        buf.push_str(",\"severity\":\"");
        buf.push_str(m.severity.as_str());
        buf.push_str("\",\"confidence\":");
        number(buf, m.confidence);
        buf.push('}');
    }
    buf.push_str("],\"routing\":{\"route\":\"");
    buf.push_str(f.routing.route.as_str());
    buf.push_str("\",\"complexity\":\"");
    buf.push_str(f.routing.complexity.as_str());
    buf.push_str("\",\"suggested_arms\":[");
    strings(buf, &f.routing.suggested_arms);
    buf.push_str("]}");
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
    strings(&mut buf, &o.routing.suggested_arms);
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
    use super::{millis, number, string};

    #[test]
    fn writes_milliseconds_as_three_decimals() {
        let written = |ms: f64| {
            let mut buf = String::new();
            millis(&mut buf, ms);
            buf
        };
        for ms in [0.0, 0.0004, 0.0006, 0.012_34, 0.1, 0.999_7, 1.0, 7.25, 12.345_6, 999.999_4, 1234.5678, 86_400_000.123] {
            assert_eq!(written(ms), format!("{ms:.3}"), "{ms}");
        }
        let mut x = 0.000_123_f64;
        while x < 1e9 {
            assert_eq!(written(x), format!("{x:.3}"), "{x}");
            x *= 1.37;
        }
        assert_eq!(written(-1.0), "0.000");
        assert_eq!(written(f64::NAN), "0.000");
        assert_eq!(written(1e300), format!("{:.3}", 1e300));
    }

    #[test]
    fn writes_confidences_as_the_shortest_digits_of_three_decimals() {
        let written = |x: f32| {
            let mut buf = String::new();
            number(&mut buf, x);
            buf
        };
        let reference = |x: f32| format!("{}", (f64::from(x) * 1000.0).round() / 1000.0);
        for t in 0..=3000u16 {
            let x = f32::from(t) / 1000.0;
            assert_eq!(written(x), reference(x), "{x}");
        }
        for x in [0.0, 0.000_4, 0.000_5, 0.85, 0.999_6, 1.0, 12.5, -0.0, -0.000_4, -0.25, f32::NAN, f32::INFINITY, 3e12, 1e30] {
            assert_eq!(written(x), reference(x), "{x}");
        }
    }

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
