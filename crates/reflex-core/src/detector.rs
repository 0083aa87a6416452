//! The detector: one check of a text composed from the detectors and routing, with its cache
//! key, the counters of what it found, and a memo of recent results by exact text.
//!
//! ```
//! use reflex_core::detector::{CheckOptions, Detector, DetectorConfig};
//! let detector = Detector::new(DetectorConfig::default());
//! let out = detector.check("hello", CheckOptions::default());
//! assert!(!out.blocked);
//! assert_eq!(out.cache_key.len(), 32);
//! ```
//!
//! The detector knows nothing of caches or limits: a caller that finds an entry under the
//! check's key and expects the same text again calls [`Detector::remember`], so the next check of
//! that text reuses the result ([`crate::memo`]).

use std::cell::RefCell;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::injection::{self, Family};
use crate::memo::{Detected, Judging, Memo};
use crate::normalize;
use crate::pii::{self, PiiKind, PiiMatch, RedactMode};
use crate::routing::{self, Routing};
use crate::severity::Severity;
use crate::sync::lock;
use crate::utf16::Utf16Map;

/// Thresholds and sizes fixed at construction.
#[derive(Clone, Debug)]
pub struct DetectorConfig {
    /// A check whose injection severity reaches this level is blocked (unless a threshold is set).
    pub block_level: Severity,
    /// When set, a check is blocked when its `injection_score` reaches this (0..=1, compared in
    /// [`thousandths`]) instead of by `block_level`. A check's own
    /// [`CheckOptions::injection_threshold`] overrides it.
    pub injection_threshold: Option<f32>,
    /// Personal data is reported and redacted only at this confidence or above (0..=1, compared in
    /// [`thousandths`]). A check's own [`CheckOptions::pii_threshold`] overrides it.
    pub pii_threshold: f32,
    /// Results kept for texts the caller expects again (0: none); see [`crate::memo`].
    pub memo_max_entries: usize,
    pub memo_max_bytes: usize,
}

impl Default for DetectorConfig {
    fn default() -> Self {
        DetectorConfig {
            block_level: Severity::High,
            injection_threshold: None,
            pii_threshold: DEFAULT_PII_THRESHOLD,
            memo_max_entries: 4_096,
            memo_max_bytes: 32 * 1024 * 1024, // 32 MiB
        }
    }
}

/// `x` (0..=1) in thousandths, the precision a reply shows scores and confidences in
/// ([`crate::json::score`]). Thresholds compare a score or a confidence with a threshold in
/// thousandths, so a score shown as 0.723 is blocked at a threshold of 0.723 and one shown as
/// 0.722 is not, whatever digits lie beyond. Past 1 counts as 1; below 0, and NaN, as 0 (a
/// threshold that means nothing blocks and reports everything rather than nothing).
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 0 ..= 1000 by the guard
pub fn thousandths(x: f32) -> u16 {
    let t = (f64::from(x) * 1000.0).round();
    if t >= 1000.0 {
        1000
    } else if t >= 0.0 {
        t as u16
    } else {
        0
    }
}

/// The least confidence of personal data reported by default: matches scored below it are
/// context-poor guesses (a checksum-valid number with nothing around it saying what it is).
pub const DEFAULT_PII_THRESHOLD: f32 = 0.4;

/// Which detectors a check runs, and the thresholds it is judged by when not the detector's.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    pub check_pii: bool,
    pub check_injection: bool,
    /// Overrides [`DetectorConfig::injection_threshold`] for this check (0..=1).
    pub injection_threshold: Option<f32>,
    /// Overrides [`DetectorConfig::pii_threshold`] for this check (0..=1).
    pub pii_threshold: Option<f32>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { check_pii: true, check_injection: true, injection_threshold: None, pii_threshold: None }
    }
}

impl CheckOptions {
    /// The bit set mixed into the cache key, so differently-flagged checks never share an entry.
    /// The thresholds are not in it: the key names the text asked about (a tenant's stored answer
    /// to it), not the verdict, which every check judges afresh (see [`Detector::check`]).
    #[must_use]
    pub fn key_flags(self) -> u8 {
        u8::from(self.check_pii) | u8::from(self.check_injection) << 1
    }
}

/// A personal-data finding with UTF-16 offsets and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct PiiFinding {
    pub kind: PiiKind,
    pub start: usize,
    pub end: usize,
    pub matched_text: String,
    pub confidence: f32,
}

/// An injection finding with UTF-16 offsets and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct InjectionFinding {
    pub family: Family,
    pub start: usize,
    pub end: usize,
    pub matched_text: String,
    pub severity: Severity,
    pub confidence: f32,
}

/// What the detectors found in one text with one set of flags: a check less its cache fields.
/// Offsets are UTF-16 code units.
#[derive(Clone, Debug)]
pub struct Findings {
    pub pii: Vec<PiiFinding>,
    pub redacted_text: String,
    pub injection_score: f32,
    pub injection_severity: Severity,
    pub injection: Vec<InjectionFinding>,
    pub blocked: bool,
    pub routing: Routing,
    /// The binding's serialised form of these fields, written on first use.
    pub rendered: Rendered,
}

/// A serialised form of some findings, written once by whoever serialises them (the binding
/// writes its wire JSON here). A memoised hit shares its findings, so it then sends bytes it
/// already has instead of escaping the redacted text and printing every number again. One form
/// per findings: a second serialiser would read the first one's bytes.
#[derive(Default)]
pub struct Rendered(OnceLock<Box<str>>);

impl Rendered {
    /// The stored form, or `render`'s, stored.
    pub fn get_or_init(&self, render: impl FnOnce() -> String) -> &str {
        self.0.get_or_init(|| render().into_boxed_str())
    }
}

/// A clone is made to be changed (tests plant findings that way), so it starts without a form.
impl Clone for Rendered {
    fn clone(&self) -> Self {
        Rendered::default()
    }
}

impl std::fmt::Debug for Rendered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() { "Rendered(..)" } else { "Rendered(None)" })
    }
}

/// Everything one check found. The findings are shared with the memo, so a memoised check reuses
/// them without a copy; they read through `Deref` (`checked.pii`).
#[derive(Clone, Debug)]
pub struct Checked {
    /// [`Detector::cache_key`] of the text and options.
    pub cache_key: String,
    pub found: Arc<Findings>,
    /// Whether the findings came from the memo.
    pub memoised: bool,
}

impl Deref for Checked {
    type Target = Findings;

    fn deref(&self) -> &Findings {
        &self.found
    }
}

/// Counters of checks since start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    pub checks: u64,
    pub blocked: u64,
    pub pii_detected: u64,
    pub injection_detected: u64,
}

/// The detector; shareable across threads (the binding's async calls run on the libuv pool).
pub struct Detector {
    config: DetectorConfig,
    memo: Mutex<Memo>,
    checks: AtomicU64,
    blocked: AtomicU64,
    pii_detected: AtomicU64,
    injection_detected: AtomicU64,
}

impl Detector {
    /// Builds the detector and warms the detectors' pattern tables (built lazily on first use,
    /// tens of milliseconds), so no request pays for them.
    #[must_use]
    pub fn new(config: DetectorConfig) -> Self {
        let _ = injection::detect("");
        let _ = pii::detect("");
        Detector {
            memo: Mutex::new(Memo::new(config.memo_max_entries, config.memo_max_bytes)),
            config,
            checks: AtomicU64::new(0),
            blocked: AtomicU64::new(0),
            pii_detected: AtomicU64::new(0),
            injection_detected: AtomicU64::new(0),
        }
    }

    #[must_use]
    pub fn config(&self) -> &DetectorConfig {
        &self.config
    }

    /// The cache key a check of `text` with `options` uses: a hash of the normalised text and the
    /// options, 32 hex characters.
    #[must_use]
    pub fn cache_key(text: &str, options: CheckOptions) -> String {
        normalize::cache_key(text, options.key_flags())
    }

    /// The flags and the thresholds a check with `options` is judged by: its own thresholds where
    /// it gives them, else the detector's.
    fn judging(&self, options: CheckOptions) -> Judging {
        Judging::new(
            options.key_flags(),
            options.injection_threshold.or(self.config.injection_threshold),
            options.pii_threshold.unwrap_or(self.config.pii_threshold),
        )
    }

    /// Checks `text`: personal data, injection, routing and the cache key. A text remembered
    /// earlier (see [`Detector::remember`]) with the same flags and thresholds reuses its result.
    ///
    /// The memo is keyed by the thresholds in force as well as the flags, rather than keeping
    /// unjudged findings and applying the thresholds on each hit: the thresholds decide
    /// `blocked`, the routing, which matches are reported and the redacted text, so applying
    /// them afterwards would redo most of a check and throw away the reply form the memo keeps.
    pub fn check(&self, text: &str, options: CheckOptions) -> Checked {
        let judging = self.judging(options);
        // A remembered text brings its key too, so it is neither normalised nor hashed again.
        let memoised = lock(&self.memo).get(text, judging).map(|d| (String::from(&*d.cache_key), Arc::clone(&d.found)));
        if let Some((cache_key, found)) = memoised {
            self.count(&found);
            return Checked { cache_key, found, memoised: true };
        }
        let found = Arc::new(self.detect(text, options, judging));
        self.count(&found);
        Checked { cache_key: Self::cache_key(text, options), found, memoised: false }
    }

    /// Keeps `checked` (a check of `text` with `options`) for the next check of the same text: for
    /// a caller that found a cache entry under its key and so expects the text again. Most texts
    /// are checked once, and a memo of all of them would only churn.
    pub fn remember(&self, text: &str, options: CheckOptions, checked: &Checked) {
        if checked.memoised {
            return;
        }
        // Copied before the lock is taken: other checks on the libuv pool wait on it.
        let detected = Detected {
            text: text.into(),
            judging: self.judging(options),
            cache_key: checked.cache_key.as_str().into(),
            found: Arc::clone(&checked.found),
        };
        lock(&self.memo).insert(detected);
    }

    /// Runs the detectors and routing, judged by `judging`'s thresholds.
    fn detect(&self, text: &str, options: CheckOptions, judging: Judging) -> Findings {
        let map = Utf16Map::new(text);

        let (pii, redacted_text) = if options.check_pii {
            with_matches(text, judging.pii_threshold(), |found| (pii_findings(text, &map, found), pii::redact(text, found, &RedactMode::Placeholder)))
        } else {
            (Vec::new(), text.to_string())
        };

        let (injection, injection_score, injection_severity) = if options.check_injection {
            let report = injection::detect(text);
            let findings = report
                .matches
                .iter()
                .map(|m| InjectionFinding {
                    family: m.family,
                    start: map.offset(m.start),
                    end: map.offset(m.end),
                    matched_text: text[m.start..m.end].to_string(),
                    severity: m.severity,
                    confidence: m.confidence,
                })
                .collect();
            (findings, report.score, report.severity)
        } else {
            (Vec::new(), 0.0, Severity::None)
        };

        let blocked = options.check_injection
            && match judging.injection_threshold() {
                Some(threshold) => thousandths(injection_score) >= threshold,
                None => injection_severity >= self.config.block_level && injection_severity > Severity::None,
            };
        let routing = routing::route(text, false, blocked, !pii.is_empty());
        Findings { pii, redacted_text, injection_score, injection_severity, injection, blocked, routing, rendered: Rendered::default() }
    }

    #[cfg(test)]
    fn memo_len(&self) -> usize {
        lock(&self.memo).len()
    }

    fn count(&self, found: &Findings) {
        self.checks.fetch_add(1, Ordering::Relaxed);
        if found.blocked {
            self.blocked.fetch_add(1, Ordering::Relaxed);
        }
        if !found.pii.is_empty() {
            self.pii_detected.fetch_add(1, Ordering::Relaxed);
        }
        if !found.injection.is_empty() {
            self.injection_detected.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Finds personal data at `pii_threshold` confidence or above (the detector's when None) and
    /// redacts it with `mode`.
    #[must_use]
    pub fn redact(&self, text: &str, mode: &RedactMode, pii_threshold: Option<f32>) -> (String, Vec<PiiFinding>) {
        let threshold = thousandths(pii_threshold.unwrap_or(self.config.pii_threshold));
        let mut found = pii::detect(text);
        found.retain(|m| thousandths(m.confidence) >= threshold);
        let redacted = pii::redact(text, &found, mode);
        (redacted, pii_findings(text, &Utf16Map::new(text), &found))
    }

    #[must_use]
    pub fn stats(&self) -> CheckStats {
        CheckStats {
            checks: self.checks.load(Ordering::Relaxed),
            blocked: self.blocked.load(Ordering::Relaxed),
            pii_detected: self.pii_detected.load(Ordering::Relaxed),
            injection_detected: self.injection_detected.load(Ordering::Relaxed),
        }
    }
}

thread_local! {
    /// The personal-data matches of the check running on this thread, before they become
    /// findings: one vector kept between checks instead of one allocated and freed per check.
    static MATCHES: RefCell<Vec<PiiMatch>> = const { RefCell::new(Vec::new()) };
}

/// A vector that grew past this many matches (a long text full of numbers) is not kept.
const MATCHES_KEPT: usize = 64;

/// Calls `use_them` with the personal data found in `text` at `threshold` (thousandths)
/// confidence or above. The threshold applies after overlaps are resolved: a span whose most
/// specific reading is too unsure is left as it is, not handed to a less specific reading (a
/// card number with nothing saying it is one is not then redacted as a phone).
fn with_matches<R>(text: &str, threshold: u16, use_them: impl FnOnce(&[PiiMatch]) -> R) -> R {
    MATCHES.with(|kept| match kept.try_borrow_mut() {
        Ok(mut found) => {
            pii::detect_into(text, &mut found);
            found.retain(|m| thousandths(m.confidence) >= threshold);
            let result = use_them(&found);
            if found.capacity() > MATCHES_KEPT {
                *found = Vec::new();
            }
            result
        }
        // Not reached (nothing here checks text from inside a check); a vector of its own then.
        Err(_) => use_them(&pii::detect(text).into_iter().filter(|m| thousandths(m.confidence) >= threshold).collect::<Vec<_>>()),
    })
}

fn pii_findings(text: &str, map: &Utf16Map<'_>, found: &[PiiMatch]) -> Vec<PiiFinding> {
    found
        .iter()
        .map(|m| PiiFinding {
            kind: m.kind,
            start: map.offset(m.start),
            end: map.offset(m.end),
            matched_text: text[m.start..m.end].to_string(),
            confidence: m.confidence,
        })
        .collect()
}

#[cfg(test)]
mod tests;
