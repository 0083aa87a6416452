//! Descriptors a started program must not inherit.
//!
//! A program the service starts inherits every open descriptor not marked close-on-exec. The
//! service's own are marked (libuv and Rust open theirs so, and Node marks fds 0 to 15 it was
//! given), but one its parent left open above those (a supervisor's pipe, a socket passed down)
//! is not, and bubblewrap passes it on to the sandboxed command: a way out of the sandbox to
//! whatever is at its other end. `closeDescriptorsOnExec` marks them all before a start.
//!
//! ```js
//! import { closeDescriptorsOnExec } from './bindings/index.js'
//! closeDescriptorsOnExec() // how many were not marked before
//! ```

// Reached only through napi's registration, which a test build leaves out.
#![cfg_attr(test, allow(dead_code))]
// `fcntl` with `F_GETFD`/`F_SETFD` reads and writes one flag of a descriptor number: no memory is
// passed, so no call can be unsound whatever the number.
#![allow(unsafe_code)]

use napi_derive::napi;

/// Marks every open descriptor from 3 up close-on-exec, so a program this process starts gets
/// only the descriptors it is handed (libuv puts those in place in the child, unmarked). Returns
/// how many were unmarked. Throws when `/proc/self/fd` cannot be read.
#[napi(catch_unwind)]
pub fn close_descriptors_on_exec() -> napi::Result<u32> {
    let dir = std::fs::read_dir("/proc/self/fd").map_err(|e| napi::Error::from_reason(format!("/proc/self/fd: {e}")))?;
    let open: Vec<i32> = dir
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&fd| fd > 2)
        .collect();
    let mut marked = 0;
    for fd in open {
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        // Closed since it was listed (the listing's own descriptor among them).
        if flags < 0 || flags & libc::FD_CLOEXEC != 0 {
            continue;
        }
        if unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) } == 0 {
            marked += 1;
        }
    }
    Ok(marked)
}
