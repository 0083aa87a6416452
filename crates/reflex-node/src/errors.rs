//! The error catalogue of the binding: every error crossing into JavaScript carries one of these
//! codes as `err.code`.

/// An option had a value outside its set (an unknown redaction mode, block level…).
pub const INVALID_OPTION: &str = "REFLEX_ERR_INVALID_OPTION";

/// A JavaScript error whose `code` is `code`.
pub type CodedError = napi::Error<&'static str>;

pub fn invalid_option(message: String) -> CodedError {
    napi::Error::new(INVALID_OPTION, message)
}
