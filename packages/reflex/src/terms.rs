//! `TermMatcher` and `LinearRegex`: matching over client text in time linear in the text.

use napi_derive::napi;
use reflex_core::linear_regex::{Found, LinearRegex as CoreRegex};
use reflex_core::terms::Terms;

use crate::errors::{invalid_option, CodedError};

#[napi]
pub struct TermMatcher {
    inner: Terms,
}

#[napi]
impl TermMatcher {
    /// Compiles `terms` (matched as whole words, case-insensitively, inner white space as any run
    /// of it). Throws `REFLEX_ERR_INVALID_OPTION` when the list is too large to compile.
    #[napi(catch_unwind, constructor)]
    pub fn new(terms: Vec<String>) -> Result<Self, CodedError> {
        Terms::new(&terms).map(|inner| TermMatcher { inner }).map_err(|e| invalid_option(e.0))
    }

    /// The matches in `text`, left to right and not overlapping, as UTF-16 offsets
    /// `[start0, end0, start1, end1, …]`.
    #[napi(catch_unwind)]
    pub fn find(&self, text: String) -> Vec<u32> {
        self.inner.find(&text).into_iter().flat_map(|(start, end)| [start, end]).collect()
    }
}

#[napi]
pub struct LinearRegex {
    inner: CoreRegex,
}

#[napi]
impl LinearRegex {
    /// Compiles `pattern` in the Rust `regex` syntax (flags inline, as `(?i)`). Throws
    /// `REFLEX_ERR_INVALID_OPTION` with the parser's message for a pattern it refuses.
    #[napi(catch_unwind, constructor)]
    pub fn new(pattern: String) -> Result<Self, CodedError> {
        CoreRegex::new(&pattern).map(|inner| LinearRegex { inner }).map_err(invalid_option)
    }

    /// The first match, or `null`.
    #[napi(catch_unwind)]
    pub fn captures(&self, text: String) -> Option<LinearMatch> {
        self.inner.captures(&text).map(LinearMatch::from)
    }

    /// Every match, left to right and not overlapping.
    #[napi(catch_unwind)]
    pub fn captures_all(&self, text: String) -> Vec<LinearMatch> {
        self.inner.captures_all(&text).into_iter().map(LinearMatch::from).collect()
    }

    #[napi(catch_unwind)]
    pub fn test(&self, text: String) -> bool {
        self.inner.is_match(&text)
    }
}

/// A match: its UTF-16 index and its groups, the whole match first (`null` for a group that took
/// no part).
#[napi(object)]
pub struct LinearMatch {
    pub index: u32,
    pub groups: Vec<Option<String>>,
}

impl From<Found> for LinearMatch {
    fn from(found: Found) -> Self {
        LinearMatch { index: found.index as u32, groups: found.groups }
    }
}
