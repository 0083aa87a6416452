//! Writing JSON values into a `String`, the numbers as `JSON.stringify` and the service write them.

use std::fmt::Write as _;

use super::plain::plain_run;
use crate::decimal::push_uint;

/// Writes `s` as a JSON string literal (quotes and escapes included), plain runs whole.
pub fn string(buf: &mut String, s: &str) {
    buf.push('"');
    let bytes = s.as_bytes();
    let mut from = 0;
    loop {
        // `plain_run` stops on an ASCII byte or the end, so `i` is a char boundary.
        let i = from + plain_run(&bytes[from..]);
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
pub fn strings(buf: &mut String, items: &[&str]) {
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
pub fn millis(buf: &mut String, ms: f64) {
    let ms = ms.max(0.0);
    let thousandths = (ms * 1000.0).round();
    if thousandths >= 1e15 {
        let _ = write!(buf, "{ms:.3}");
        return;
    }
    #[allow(clippy::cast_sign_loss)] // 0 <= thousandths < 1e15
    let t = thousandths as u64;
    push_uint(buf, t / 1000);
    let frac = t % 1000;
    buf.push('.');
    buf.push(char::from(b'0' + (frac / 100) as u8));
    buf.push(char::from(b'0' + (frac / 10 % 10) as u8));
    buf.push(char::from(b'0' + (frac % 10) as u8));
}

/// A confidence or score with three decimals: enough for a 0..1 figure, short on the wire. Written
/// as `{}` writes `round(x * 1000) / 1000` (the shortest digits that read back as that double, so
/// no trailing zeros, and no point for a whole number): for a count `t` of thousandths that is the
/// digits of `t / 1000`, a point and `t % 1000` with its trailing zeros dropped, because no shorter
/// decimal lies as near the double. Anything else (negative, NaN, huge) goes through `{}`.
pub fn score(buf: &mut String, x: f32) {
    let thousandths = (f64::from(x) * 1000.0).round();
    if !(0.0..1e15).contains(&thousandths) || thousandths.is_sign_negative() {
        let _ = write!(buf, "{}", thousandths / 1000.0);
        return;
    }
    #[allow(clippy::cast_sign_loss)] // 0 <= thousandths < 1e15
    let t = thousandths as u64;
    push_uint(buf, t / 1000);
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

#[cfg(test)]
mod tests {
    use super::{millis, score, string};

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
    fn writes_scores_as_the_shortest_digits_of_three_decimals() {
        let written = |x: f32| {
            let mut buf = String::new();
            score(&mut buf, x);
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
    fn escapes_quotes_backslashes_and_controls() {
        assert_eq!(quoted("plain text that is longer than sixteen bytes"), "\"plain text that is longer than sixteen bytes\"");
        assert_eq!(quoted("a\"b\\c\nd\re\tf\u{1}g"), "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\"");
        assert_eq!(quoted("naïve café — 東京 \"q\" ✓"), "\"naïve café — 東京 \\\"q\\\" ✓\"");
        assert_eq!(quoted(""), "\"\"");
        for b in 0u8..0x80 {
            for pad in 0..20 {
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
