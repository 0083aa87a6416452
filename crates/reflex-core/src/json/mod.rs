//! JSON for the check's wire form: a writer for the check result and the requests' replies, and a
//! reader for request bodies, stored values and the test corpora. The one JSON implementation of
//! the workspace; it does only what those need, in a single pass over the bytes.
//!
//! ```
//! use reflex_core::json;
//! let mut out = String::new();
//! json::string(&mut out, "say \"hi\"");
//! assert_eq!(out, r#""say \"hi\"""#);
//! let v = json::parse(r#"{"a": [1, "two", null]}"#).unwrap();
//! assert_eq!(v.get("a").and_then(|a| a.as_array()).map(Vec::len), Some(3));
//! assert!(json::is_value(br#"{"nested": {"ok": true}}"#));
//! ```

mod plain;
mod read;
mod write;

pub use read::{is_value, parse, Reader, Value, MAX_DEPTH};
pub use write::{millis, score, string, strings};
