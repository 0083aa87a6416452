//! Strings across napi on the hot checks, each copied once.
//!
//! napi-rs reads a JavaScript string as UTF-8 in two passes (V8's `Utf8Length`, then
//! `WriteUtf8` into a zeroed buffer) and hands a Rust string back through V8's UTF-8 decoder. A
//! 1 KB text's check paid a few thousand instructions for that beside a ~70k check. Here the
//! text is written once into room for the worst case (three UTF-8 bytes per UTF-16 unit, which
//! `napi_get_value_string_utf16` reports without a pass), and an all-ASCII JSON answer (the usual
//! one: the writer escapes only quotes, backslashes and controls) is copied as Latin-1, which V8
//! takes as it is; any other answer is handed over as UTF-16, which V8 also copies as it is.

use std::mem::MaybeUninit;
use std::ptr;

use napi::bindgen_prelude::{FromNapiValue, Result, ToNapiValue, TypeName, ValidateNapiValue};
use napi::{sys, Status, ValueType};

/// A JavaScript string argument, read in one pass. Declare it with `ts_arg_type = "string"`.
pub struct Text(pub String);

impl FromNapiValue for Text {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
        let mut units = 0;
        // SAFETY: a null buffer asks only for the length in UTF-16 units (V8's `Length`, O(1)).
        let status = unsafe { sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &raw mut units) };
        if status != sys::Status::napi_ok {
            // Not a string: napi-rs's own conversion says so in its usual words.
            return unsafe { String::from_napi_value(env, value) }.map(Text);
        }
        // Every UTF-16 unit is at most three UTF-8 bytes (a lone surrogate becomes U+FFFD's
        // three), a pair four; one more for the terminator napi writes.
        let room = units * 3 + 1;
        let mut bytes: Vec<u8> = Vec::with_capacity(room);
        let mut written = 0;
        // SAFETY: napi writes at most `room` bytes into the buffer and reports how many before the
        // terminator; V8 writes whole, valid UTF-8 (invalid sequences replaced).
        let status = unsafe { sys::napi_get_value_string_utf8(env, value, bytes.as_mut_ptr().cast(), room, &raw mut written) };
        if status != sys::Status::napi_ok {
            return Err(napi::Error::new(Status::GenericFailure, "could not read the text"));
        }
        unsafe {
            bytes.set_len(written);
            Ok(Text(String::from_utf8_unchecked(bytes)))
        }
    }
}

impl TypeName for Text {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ValidateNapiValue for Text {}

/// A string answer (JSON, a cache key) handed to JavaScript: Latin-1 when it is all ASCII,
/// else UTF-16.
/// Declare it with `ts_return_type = "string"`.
pub struct Answer(pub String);

impl ToNapiValue for Answer {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        if !val.0.is_ascii() {
            return unsafe { utf16_answer(env, val.0) };
        }
        let Ok(len) = isize::try_from(val.0.len()) else {
            return unsafe { String::to_napi_value(env, val.0) };
        };
        let mut out = ptr::null_mut();
        // SAFETY: ASCII bytes are Latin-1 characters of the same values; V8 copies them.
        let status = unsafe { sys::napi_create_string_latin1(env, val.0.as_ptr().cast(), len, &raw mut out) };
        if status != sys::Status::napi_ok {
            return unsafe { String::to_napi_value(env, val.0) };
        }
        Ok(out)
    }
}

/// An answer that is not ASCII as UTF-16, which V8 copies as it is: through V8's UTF-8 decoder
/// the 1.3 KB answer of a KB of English with an em dash cost ~0.6 us more (bench/RESULTS.md).
unsafe fn utf16_answer(env: sys::napi_env, answer: String) -> Result<sys::napi_value> {
    let wide = reflex_core::utf16::encode(&answer);
    let Ok(len) = isize::try_from(wide.len()) else {
        return unsafe { String::to_napi_value(env, answer) };
    };
    let mut out = ptr::null_mut();
    // SAFETY: `wide` holds `len` UTF-16 units; V8 copies them.
    let status = unsafe { sys::napi_create_string_utf16(env, wide.as_ptr(), len, &raw mut out) };
    if status != sys::Status::napi_ok {
        return unsafe { String::to_napi_value(env, answer) };
    }
    Ok(out)
}

impl TypeName for Answer {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

/// Room for `ShortText` on the stack, in UTF-16 units: a request id (up to 200 printable ASCII
/// characters, `src/http/request-id.ts`) fits.
const SHORT_UNITS: usize = 255;

/// A short JavaScript string argument (a request id), read without an allocation: copied as
/// UTF-16 (for a one-byte string V8 only widens its bytes) into a buffer on the stack and
/// narrowed there. napi-rs's `String` measured it as UTF-8 (`Utf8Length`), allocated, and wrote it
/// (`WriteUtf8`): ~1.3k instructions for a UUID, a twentieth of the work around a miss's check.
/// A longer string is read as `Text`. A lone surrogate becomes U+FFFD, as napi's UTF-8 makes it.
/// Declare it with `ts_arg_type = "string"`.
pub struct ShortText {
    /// `len` bytes written, the rest not: nothing is zeroed (a memset of both buffers was a
    /// tenth of what reading the id cost).
    bytes: [MaybeUninit<u8>; SHORT_UNITS * 3],
    len: usize,
    long: Option<String>,
}

impl ShortText {
    pub fn as_str(&self) -> &str {
        match &self.long {
            Some(long) => long,
            // SAFETY: `from_napi_value` wrote whole UTF-8 sequences into `bytes[..len]`.
            None => unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(self.bytes.as_ptr().cast::<u8>(), self.len)) },
        }
    }

    /// Appends `b` (there is always room: see `from_napi_value`).
    fn push(&mut self, b: &[u8]) {
        for (slot, &b) in self.bytes[self.len..self.len + b.len()].iter_mut().zip(b) {
            slot.write(b);
        }
        self.len += b.len();
    }
}

impl FromNapiValue for ShortText {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
        let mut units = [MaybeUninit::<u16>::uninit(); SHORT_UNITS + 1];
        let mut copied = 0;
        // SAFETY: napi writes at most `units.len()` units, a terminator included, and reports how
        // many before it; a string of SHORT_UNITS or more may be cut, so it is read as `Text`.
        let status = unsafe { sys::napi_get_value_string_utf16(env, value, units.as_mut_ptr().cast(), units.len(), &raw mut copied) };
        let mut text = ShortText { bytes: [MaybeUninit::uninit(); SHORT_UNITS * 3], len: 0, long: None };
        if status != sys::Status::napi_ok || copied >= SHORT_UNITS {
            text.long = Some(unsafe { Text::from_napi_value(env, value) }?.0);
            return Ok(text);
        }
        // SAFETY: napi wrote the first `copied` units.
        let units = unsafe { std::slice::from_raw_parts(units.as_ptr().cast::<u16>(), copied) };
        if units.iter().all(|&u| u < 0x80) {
            for (slot, &u) in text.bytes.iter_mut().zip(units) {
                slot.write(u as u8); // ASCII
            }
            text.len = units.len();
        } else {
            for c in char::decode_utf16(units.iter().copied()) {
                // At most three bytes a unit (a pair's four are two units'): always room.
                let mut utf8 = [0; 4];
                text.push(c.unwrap_or(char::REPLACEMENT_CHARACTER).encode_utf8(&mut utf8).as_bytes());
            }
        }
        Ok(text)
    }
}

impl TypeName for ShortText {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> ValueType {
        ValueType::String
    }
}

impl ValidateNapiValue for ShortText {}
