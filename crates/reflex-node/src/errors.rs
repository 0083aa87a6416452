//! The error catalogue of the binding: every error crossing into JavaScript carries one of these
//! codes as `err.code`. A panic (a bug) is no code of the catalogue: it throws `GenericFailure`
//! with the panic's message rather than aborting the process (`unless_panic`).

// Only napi's registration reaches the test hooks, and test builds leave that out.
#![cfg_attr(test, allow(dead_code))]

use napi::bindgen_prelude::{AsyncTask, Env, Task};
use napi_derive::napi;

/// An option had a value outside its set (an unknown redaction mode, block level…).
pub const INVALID_OPTION: &str = "REFLEX_ERR_INVALID_OPTION";

/// A JavaScript error whose `code` is `code`.
pub type CodedError = napi::Error<&'static str>;

pub fn invalid_option(message: String) -> CodedError {
    napi::Error::new(INVALID_OPTION, message)
}

/// `f`'s value, or an error (`GenericFailure`, the panic's message) if it panicked: a panic is a
/// bug, but it must not abort the process. Every `#[napi]` export is marked `catch_unwind`, which
/// does this on the calling thread; work on the libuv pool (`Task::compute`) goes through here.
pub fn unless_panic<T>(f: impl FnOnce() -> T) -> napi::Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(napi::bindgen_prelude::panic_to_error)
}

/// Panics with `message`: for the test that a panic in the addon becomes a JavaScript error
/// instead of aborting the process. Not part of the API.
#[napi(catch_unwind)]
pub fn panic_for_tests(message: String) {
    panic!("{message}");
}

/// As `panicForTests`, in a task on the libuv pool, where the export's `catch_unwind` does not
/// reach (`unless_panic` does). Not part of the API.
#[napi(ts_return_type = "Promise<void>")]
pub fn panic_on_pool_for_tests(message: String) -> AsyncTask<PanicTask> {
    AsyncTask::new(PanicTask(message))
}

pub struct PanicTask(String);

impl Task for PanicTask {
    type Output = ();
    type JsValue = ();

    fn compute(&mut self) -> napi::Result<()> {
        unless_panic(|| panic!("{}", self.0))
    }

    fn resolve(&mut self, _env: Env, (): ()) -> napi::Result<()> {
        Ok(())
    }
}
