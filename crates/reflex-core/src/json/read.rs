//! Reading JSON from bytes: a [`Reader`] for callers that walk a document they expect (a request
//! body), [`parse`] into a [`Value`] tree, and [`is_value`] to check a document without keeping it.
//! Plain runs of a string are validated as UTF-8 and copied whole. Nesting deeper than [`MAX_DEPTH`] is refused, so no document
//! can exhaust the stack.

use std::borrow::Cow;

use super::plain::plain_run;

/// Arrays and objects nest at most this deep.
pub const MAX_DEPTH: usize = 256;

/// A parsed JSON value. Numbers are `f64`, as in JavaScript.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The value of `key` in an object (the first, if repeated).
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    #[must_use]
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// One whole JSON document, or None when `text` is not one (or nests too deep, or holds a lone
/// surrogate escape, which a Rust string cannot hold).
#[must_use]
pub fn parse(text: &str) -> Option<Value> {
    let mut r = Reader::new(text.as_bytes());
    let v = r.value(0)?;
    r.end().then_some(v)
}

/// Whether `bytes` are one whole JSON document (lone surrogate escapes included, as
/// `JSON.parse` takes them), nesting at most [`MAX_DEPTH`] deep.
#[must_use]
pub fn is_value(bytes: &[u8]) -> bool {
    let mut r = Reader::new(bytes);
    r.skip_value(0).is_some() && r.end()
}

/// A cursor over a JSON document. Each method answers None where the document is not what it
/// reads (or not JSON), leaving the cursor anywhere: a caller gives up on the document then.
pub struct Reader<'a> {
    s: &'a [u8],
    at: usize,
}

/// `bytes` as text, when they are UTF-8: checked sixteen bytes at a time, where the standard
/// library's check took three times the instructions on a 1 KB text.
fn run_text(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

impl<'a> Reader<'a> {
    #[must_use]
    pub fn new(s: &'a [u8]) -> Self {
        Reader { s, at: 0 }
    }

    pub fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.at) {
            self.at += 1;
        }
    }

    /// Whether only whitespace is left.
    pub fn end(&mut self) -> bool {
        self.skip_ws();
        self.at == self.s.len()
    }

    /// The next byte after whitespace, consumed.
    pub fn next_byte(&mut self) -> Option<u8> {
        self.skip_ws();
        let b = *self.s.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    /// Consumes `want` after whitespace.
    pub fn expect(&mut self, want: u8) -> Option<()> {
        (self.next_byte()? == want).then_some(())
    }

    /// An object key after its opening quote, as bytes, up to and past its closing quote; None for
    /// a key with an escape (a caller that knows its keys by their bytes has no use for one).
    pub fn key(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        self.at += plain_run(&self.s[start..]);
        if self.s.get(self.at)? != &b'"' {
            return None;
        }
        self.at += 1;
        Some(&self.s[start..self.at - 1])
    }

    /// A string, from its opening quote; borrowed when it has no escape.
    pub fn string(&mut self) -> Option<Cow<'a, str>> {
        self.expect(b'"')?;
        let start = self.at;
        self.at += plain_run(&self.s[start..]);
        let first = run_text(&self.s[start..self.at])?;
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
                        b'u' => self.unicode_escape()?,
                        e => simple_escape(e)?,
                    });
                }
                _ => return None, // a raw control character
            }
            let run = plain_run(&self.s[self.at..]);
            out.push_str(run_text(&self.s[self.at..self.at + run])?);
            self.at += run;
        }
    }

    /// `true` or `false`.
    pub fn boolean(&mut self) -> Option<bool> {
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

    /// A number, as JavaScript reads it.
    pub fn float(&mut self) -> Option<f64> {
        self.skip_ws();
        let start = self.at;
        self.number()?;
        // The grammar was checked: the digits are ASCII, and Rust reads them as JavaScript does.
        std::str::from_utf8(&self.s[start..self.at]).ok()?.parse().ok()
    }

    /// Any value, as a tree, at nesting `depth`.
    pub fn value(&mut self, depth: usize) -> Option<Value> {
        self.skip_ws();
        match *self.s.get(self.at)? {
            b'"' => self.string().map(|s| Value::String(s.into_owned())),
            b'[' => {
                let mut items = Vec::new();
                self.items(depth, b']', |r| {
                    items.push(r.value(depth + 1)?);
                    Some(())
                })?;
                Some(Value::Array(items))
            }
            b'{' => {
                let mut fields = Vec::new();
                self.items(depth, b'}', |r| {
                    let k = r.string()?.into_owned();
                    r.expect(b':')?;
                    fields.push((k, r.value(depth + 1)?));
                    Some(())
                })?;
                Some(Value::Object(fields))
            }
            b't' | b'f' => self.boolean().map(Value::Bool),
            b'n' => self.literal(b"null").map(|()| Value::Null),
            _ => self.float().map(Value::Number),
        }
    }

    /// Any value, checked and passed over, at nesting `depth`.
    pub fn skip_value(&mut self, depth: usize) -> Option<()> {
        self.skip_ws();
        match *self.s.get(self.at)? {
            b'"' => self.skip_string(),
            b'[' => self.items(depth, b']', |r| r.skip_value(depth + 1)),
            b'{' => self.items(depth, b'}', |r| {
                r.skip_ws();
                r.skip_string()?;
                r.expect(b':')?;
                r.skip_value(depth + 1)
            }),
            b't' | b'f' => self.boolean().map(drop),
            b'n' => self.literal(b"null"),
            _ => self.number(),
        }
    }

    /// The items of an array or object, from its opening bracket: `item` reads each, `close` ends.
    fn items(&mut self, depth: usize, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.at += 1;
        self.skip_ws();
        if self.s.get(self.at) == Some(&close) {
            self.at += 1;
            return Some(());
        }
        loop {
            item(self)?;
            match self.next_byte()? {
                b',' => {}
                b if b == close => return Some(()),
                _ => return None,
            }
        }
    }

    /// A string from its opening quote, checked: escapes well formed (a lone surrogate escape is
    /// JSON), no raw control character, UTF-8.
    fn skip_string(&mut self) -> Option<()> {
        if self.s.get(self.at) != Some(&b'"') {
            return None;
        }
        self.at += 1;
        loop {
            let run = plain_run(&self.s[self.at..]);
            run_text(&self.s[self.at..self.at + run])?;
            self.at += run;
            match *self.s.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                b'\\' => {
                    let e = *self.s.get(self.at + 1)?;
                    self.at += 2;
                    if e == b'u' {
                        self.hex4()?;
                    } else {
                        simple_escape(e)?;
                    }
                }
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.s.get(self.at..)?.starts_with(word).then(|| self.at += word.len())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Option<()> {
        let digits = |r: &mut Self| {
            let start = r.at;
            while r.s.get(r.at).is_some_and(u8::is_ascii_digit) {
                r.at += 1;
            }
            (r.at > start).then_some(())
        };
        if self.s.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        if self.s.get(self.at) == Some(&b'0') {
            self.at += 1;
        } else {
            digits(self)?;
        }
        if self.s.get(self.at) == Some(&b'.') {
            self.at += 1;
            digits(self)?;
        }
        if let Some(b'e' | b'E') = self.s.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.s.get(self.at) {
                self.at += 1;
            }
            digits(self)?;
        }
        Some(())
    }

    /// After `\u`: one scalar value. A surrogate pair must come whole: a lone surrogate is valid in
    /// a JavaScript string but not in a Rust one.
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

/// The character a one-letter escape stands for.
fn simple_escape(e: u8) -> Option<char> {
    Some(match e {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{is_value, parse, Value, MAX_DEPTH};

    #[test]
    fn parses_every_kind_of_value() {
        let v = parse(r#" {"s": "a\"b\\c\/\n\u00e9\ud83d\ude00", "n": -12.5e2, "z": 0, "t": true, "f": false, "x": null, "a": [1, [], {}]} "#).unwrap();
        assert_eq!(v.get("s").and_then(Value::as_str), Some("a\"b\\c/\n\u{e9}\u{1f600}"));
        assert_eq!(v.get("n"), Some(&Value::Number(-1250.0)));
        assert_eq!(v.get("z"), Some(&Value::Number(0.0)));
        assert_eq!((v.get("t"), v.get("f"), v.get("x")), (Some(&Value::Bool(true)), Some(&Value::Bool(false)), Some(&Value::Null)));
        assert_eq!(v.get("a").and_then(Value::as_array).map(Vec::len), Some(3));
    }

    #[test]
    fn refuses_what_json_parse_refuses() {
        for bad in [
            "", " ", "{", "}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'a'", "01", "1.", ".5", "-", "1e", "+1", "tru", "nul",
            "\"a", "\"\\x\"", "\"\\u12\"", "\"tab\there\"", "[1] [2]", "NaN", "Infinity", "\u{feff}1",
        ] {
            assert!(parse(bad).is_none(), "{bad:?}");
            assert!(!is_value(bad.as_bytes()), "{bad:?}");
        }
        assert!(!is_value(b"\"\xff\""), "not UTF-8");
    }

    #[test]
    fn a_lone_surrogate_escape_is_json_but_no_rust_string() {
        assert!(is_value(br#""a\ud800b""#));
        assert!(parse(r#""a\ud800b""#).is_none());
    }

    #[test]
    fn nesting_is_bounded() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(is_value(nested(MAX_DEPTH).as_bytes()) && parse(&nested(MAX_DEPTH)).is_some());
        assert!(!is_value(nested(MAX_DEPTH + 1).as_bytes()) && parse(&nested(MAX_DEPTH + 1)).is_none());
        // Far deeper than the stack would take, refused at the bound.
        assert!(!is_value(nested(1_000_000).as_bytes()));
    }
}
