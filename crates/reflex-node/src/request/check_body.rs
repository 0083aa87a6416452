//! The usual `/api/v1/check` body read straight from its bytes: a JSON object with `text`,
//! `user_id` and any of the three boolean flags, each once, nothing else. Anything else is left to
//! the service's own decoding and validation (`None`), so every error stays the validator's: this
//! only has to agree with `JSON.parse` + the schema on the bodies it takes.

use std::borrow::Cow;

use crate::plain::{plain_len, plain_run};

/// `flags` bits: which parts of the check run.
pub const CHECK_PII: u32 = 1;
pub const CHECK_INJECTION: u32 = 2;
pub const USE_CACHE: u32 = 4;

/// The schema's bounds (src/reflex/schemas.ts) count code points; a string has at most as many
/// code points as UTF-8 bytes, so one within these byte counts is within the schema, and one
/// beyond them is left to it.
const MAX_TEXT_BYTES: usize = 100_000;
const MAX_USER_ID_BYTES: usize = 256;

/// The two strings borrow from the body unless they hold escapes.
pub struct CheckBody<'a> {
    pub text: Cow<'a, str>,
    pub user_id: Cow<'a, str>,
    pub flags: u32,
}

/// The body when it is one the fast path takes (see the module header); None for any other.
pub fn parse(bytes: &[u8]) -> Option<CheckBody<'_>> {
    let mut p = Parser { s: bytes, at: 0 };
    let (mut text, mut user_id) = (None, None);
    let mut flags = CHECK_PII | CHECK_INJECTION | USE_CACHE;
    let mut seen = 0;
    p.expect(b'{')?;
    loop {
        p.expect(b'"')?;
        let bit = match p.key()? {
            b"text" if text.is_none() => {
                p.expect(b':')?;
                text = Some(p.value_string()?);
                0
            }
            b"user_id" if user_id.is_none() => {
                p.expect(b':')?;
                user_id = Some(p.value_string()?);
                0
            }
            b"check_pii" => CHECK_PII,
            b"check_injection" => CHECK_INJECTION,
            b"use_cache" => USE_CACHE,
            _ => return None,
        };
        if bit != 0 {
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            p.expect(b':')?;
            if !p.boolean()? {
                flags &= !bit;
            }
        }
        match p.next()? {
            b',' => {}
            b'}' => break,
            _ => return None,
        }
    }
    p.skip_ws();
    if p.at != p.s.len() {
        return None;
    }
    let (text, user_id) = (text?, user_id?);
    if text.is_empty() || text.len() > MAX_TEXT_BYTES || user_id.is_empty() || user_id.len() > MAX_USER_ID_BYTES {
        return None;
    }
    Some(CheckBody { text, user_id, flags })
}

/// Just enough JSON for `parse`: whitespace, strings, booleans. Each method answers None where
/// `JSON.parse` would fail or give something the fast path leaves alone. The body is read as
/// bytes: outside strings only ASCII is taken, keys are compared as bytes, and a string value is
/// validated as UTF-8 only when its run is not all ASCII (the scan for its end tells), so a body
/// that is not UTF-8 is still None, without a validation pass over all of it.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

/// `bytes` as text: checked unless the scan found them all ASCII.
fn run_text(bytes: &[u8], ascii: bool) -> Option<&str> {
    if ascii {
        // SAFETY: ASCII is UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, consumed.
    fn next(&mut self) -> Option<u8> {
        self.skip_ws();
        let b = *self.s.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn expect(&mut self, want: u8) -> Option<()> {
        (self.next()? == want).then_some(())
    }

    /// A key whose opening quote was just read, as bytes (only ASCII keys are known); one with
    /// an escape is left to the validator.
    fn key(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        self.at += plain_len(&self.s[start..]);
        if self.s.get(self.at)? != &b'"' {
            return None;
        }
        self.at += 1;
        Some(&self.s[start..self.at - 1])
    }

    /// A string value, borrowed when it has no escape (the text is the body's bulk: no copy).
    fn value_string(&mut self) -> Option<Cow<'a, str>> {
        self.expect(b'"')?;
        let start = self.at;
        let (len, ascii) = plain_run(&self.s[start..]);
        self.at += len;
        let first = run_text(&self.s[start..self.at], ascii)?;
        if *self.s.get(self.at)? == b'"' {
            self.at += 1;
            return Some(Cow::Borrowed(first));
        }
        let mut out = String::from(first);
        loop {
            match *self.s.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(Cow::Owned(out));
                }
                b'\\' => {
                    let e = *self.s.get(self.at + 1)?;
                    self.at += 2;
                    out.push(match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return None,
                    });
                }
                _ => return None, // a raw control character
            }
            // Runs of plain text (all of the usual text) are copied whole.
            let (run, ascii) = plain_run(&self.s[self.at..]);
            out.push_str(run_text(&self.s[self.at..self.at + run], ascii)?);
            self.at += run;
        }
    }

    fn boolean(&mut self) -> Option<bool> {
        self.skip_ws();
        let rest = self.s.get(self.at..)?;
        let (value, len) = if rest.starts_with(b"true") {
            (true, 4)
        } else if rest.starts_with(b"false") {
            (false, 5)
        } else {
            return None;
        };
        self.at += len;
        Some(value)
    }

    /// After `\u`: one scalar value. A surrogate pair must come whole: a lone surrogate is valid in
    /// a JS string but not in a Rust one, so that body is left to the validator.
    fn unicode_escape(&mut self) -> Option<char> {
        let hi = self.hex4()?;
        if (0xD800..0xDC00).contains(&hi) {
            if self.s.get(self.at..self.at + 2)? != b"\\u" {
                return None;
            }
            self.at += 2;
            let lo = self.hex4()?;
            if !(0xDC00..0xE000).contains(&lo) {
                return None;
            }
            return char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
        }
        char::from_u32(hi)
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.s.get(self.at..self.at + 4)?;
        let mut value = 0;
        for &d in digits {
            value = value * 16 + char::from(d).to_digit(16)?;
        }
        self.at += 4;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::{parse, CHECK_INJECTION, CHECK_PII, USE_CACHE};

    fn parsed(json: &str) -> Option<(String, String, u32)> {
        parse(json.as_bytes()).map(|b| (b.text.into_owned(), b.user_id.into_owned(), b.flags))
    }

    #[test]
    fn takes_the_usual_body() {
        let all = CHECK_PII | CHECK_INJECTION | USE_CACHE;
        assert_eq!(parsed(r#"{"text":"hi there","user_id":"u1"}"#), Some(("hi there".into(), "u1".into(), all)));
        let spaced = " {\n \"user_id\" : \"u1\" ,\t\"text\":\"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\u{e9}\", \"check_pii\": false, \"use_cache\":true}\r\n";
        assert_eq!(parsed(spaced), Some(("a\"b\\c/\n\u{e9}\u{1f600}\u{e9}".into(), "u1".into(), CHECK_INJECTION | USE_CACHE)));
        let off = r#"{"text":"x","user_id":"u","check_injection":false,"use_cache":false}"#;
        assert_eq!(parsed(off).map(|p| p.2), Some(CHECK_PII));
    }

    #[test]
    fn leaves_everything_else_to_the_validator() {
        for json in [
            r#"{"text":"hi"}"#,
            r#"{"text":"","user_id":"u"}"#,
            r#"{"text":"hi","user_id":""}"#,
            r#"{"text":"hi","user_id":"u","colour":"blue"}"#,
            r#"{"text":"hi","text":"again","user_id":"u"}"#,
            r#"{"text":"hi","user_id":"u","check_pii":1}"#,
            r#"{"text":"hi","user_id":"u","check_pii":false,"check_pii":true}"#,
            r#"{"text":"hi","user_id":null}"#,
            r#"{"text":42,"user_id":"u"}"#,
            r#"{"text":"a\ud800","user_id":"u"}"#,
            r#"{"text":"a\ud800\u0041","user_id":"u"}"#,
            r#"{"text":"a\x","user_id":"u"}"#,
            r#"{"text":"a\u00g1","user_id":"u"}"#,
            r#"{"text":"hi","user_id":"u"} x"#,
            r#"{"text":"hi","user_id":"u",}"#,
            r#"{"text":"hi","user_id":"u""#,
            r#"["hi"]"#,
            "{}",
            "",
            "{\"text\":\"tab\there\",\"user_id\":\"u\"}",
            "\u{feff}{\"text\":\"hi\",\"user_id\":\"u\"}",
        ] {
            assert!(parsed(json).is_none(), "{json}");
        }
        assert!(parse(b"{\"text\":\"\xff\",\"user_id\":\"u\"}").is_none(), "not UTF-8");
        assert!(parsed(&format!(r#"{{"text":"{}","user_id":"u"}}"#, "a".repeat(100_001))).is_none());
        assert!(parsed(&format!(r#"{{"text":"a","user_id":"{}"}}"#, "u".repeat(257))).is_none());
        assert!(parsed(&format!(r#"{{"text":"{}","user_id":"{}"}}"#, "a".repeat(100_000), "u".repeat(256))).is_some());
        assert!(parsed(r#"{"te\u0078t":"hi","user_id":"u"}"#).is_none(), "an escaped key");
    }

    #[test]
    fn finds_every_quote_and_escape_wherever_it_falls() {
        for n in 0..20 {
            let text = format!("{}\"{}\\{}\u{1}", "a".repeat(n), "\u{e9}".repeat(n), "b".repeat(n % 9));
            let json = format!(r#"{{"text":{},"user_id":"u"}}"#, literal(&text));
            assert_eq!(parsed(&json).map(|p| p.0), Some(text), "{json}");
        }
    }

    /// A JSON string literal for the test texts (quote, backslash, control characters).
    fn literal(s: &str) -> String {
        let mut out = String::from('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if u32::from(c) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }
}
