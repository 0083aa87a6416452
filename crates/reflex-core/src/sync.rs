//! The one lock helper the shared structures use.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// A poisoned lock only means another thread panicked mid-operation; the structures stay
/// consistent enough to keep serving, which beats failing every later request.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
