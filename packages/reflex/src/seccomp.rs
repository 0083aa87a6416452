//! The seccomp programs bubblewrap installs in the executor's shell sandbox (`--add-seccomp-fd`),
//! each as the raw `struct sock_filter` array the kernel takes, for `x86_64` (the only target this
//! package builds). They refuse the system calls a text command never needs and that widen what a
//! hostile one could reach: tracing other processes, mounting, loading kernel code or BPF, the
//! kernel keyring, userfaultfd, perf events, `io_uring`, new namespaces, file handles, the clock,
//! and faking terminal input.
//!
//! ```js
//! import { sandboxSeccompFilters } from './bindings/index.js'
//! const [denied, abi] = sandboxSeccompFilters() // Buffers, 8 bytes per instruction
//! ```
//!
//! A refused call returns `EPERM`, so the command sees an ordinary error rather than being killed.
//! Two programs, because seccompiler gives one filter one action: the second is written here by
//! hand and makes `clone3` fail with `ENOSYS` (its flags sit behind a pointer no filter can read;
//! glibc then falls back to `clone`, whose flags the first program checks) and refuses the x32 ABI
//! (system call numbers with bit 30 set), which would otherwise reach every call above under
//! another number. Any other architecture (32-bit calls through `int 0x80`) kills the process.

// Reached only through napi's registration, which a test build leaves out.
#![cfg_attr(test, allow(dead_code))]

use std::collections::BTreeMap;

use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use seccompiler::{
    sock_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch,
};

/// Refused whatever their arguments.
const DENIED: &[i64] = &[
    // Other processes' memory and execution.
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kcmp,
    libc::SYS_pidfd_getfd,
    // Mounts and the root, old and new mount API.
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    // Namespaces: joining or making them (clone's namespace flags are below).
    libc::SYS_unshare,
    libc::SYS_setns,
    // Kernel code, BPF, keys, tracing and kernel attack surface commands never use.
    libc::SYS_bpf,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_userfaultfd,
    libc::SYS_perf_event_open,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_fanotify_init,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_uselib,
    libc::SYS_lookup_dcookie,
    libc::SYS__sysctl,
    libc::SYS_syslog,
    // Files by handle, which step around the mount tree.
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    // The machine itself.
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_iopl,
    libc::SYS_ioperm,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_quotactl_fd,
    libc::SYS_vhangup,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
];

/// clone flags that make a namespace; any one of them refuses the call. (`CLONE_NEWTIME` shares its
/// bit with the exit signal in `clone`'s flags, so it is left to `unshare`, refused above.)
const NAMESPACE_FLAGS: &[u64] = &[
    0x0002_0000, // CLONE_NEWNS
    0x0200_0000, // CLONE_NEWCGROUP
    0x0400_0000, // CLONE_NEWUTS
    0x0800_0000, // CLONE_NEWIPC
    0x1000_0000, // CLONE_NEWUSER
    0x2000_0000, // CLONE_NEWPID
    0x4000_0000, // CLONE_NEWNET
];

/// ioctl requests that push input into, or take over, a terminal (TIOCSTI, TIOCLINUX).
const TERMINAL_IOCTLS: &[u64] = &[0x5412, 0x541C];

const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
const X32_SYSCALL_BIT: u32 = 0x4000_0000;
const SYS_CLONE3: u32 = 435;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;

/// The seccomp programs of the shell sandbox, in the order bubblewrap is given them.
#[napi(catch_unwind)]
pub fn sandbox_seccomp_filters() -> napi::Result<Vec<Buffer>> {
    let denied = denied_program().map_err(|err| napi::Error::from_reason(format!("seccomp filter: {err}")))?;
    Ok(vec![bytes(&denied).into(), bytes(&abi_program()).into()])
}

fn denied_program() -> Result<BpfProgram, seccompiler::BackendError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = DENIED.iter().map(|&nr| (nr, Vec::new())).collect();
    rules.insert(libc::SYS_clone, any_arg_matches(0, NAMESPACE_FLAGS, Mask::Bits)?);
    rules.insert(libc::SYS_ioctl, any_arg_matches(1, TERMINAL_IOCTLS, Mask::Whole)?);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        TargetArch::x86_64,
    )?;
    filter.try_into()
}

enum Mask {
    /// The argument has every bit of the value set.
    Bits,
    /// The argument's low 32 bits equal the value.
    Whole,
}

/// One rule per value (rules of a syscall are alternatives): argument `arg` matches it.
fn any_arg_matches(arg: u8, values: &[u64], mask: Mask) -> Result<Vec<SeccompRule>, seccompiler::BackendError> {
    values
        .iter()
        .map(|&value| {
            let op = match mask {
                Mask::Bits => SeccompCmpOp::MaskedEq(value),
                Mask::Whole => SeccompCmpOp::Eq,
            };
            SeccompRule::new(vec![SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value)?])
        })
        .collect()
}

/// `clone3` fails with ENOSYS, x32 calls with EPERM; everything else goes on to the other program.
fn abi_program() -> BpfProgram {
    const LD_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JGE: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RET: u16 = 0x06; // BPF_RET | BPF_K
    let op = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    vec![
        op(LD_ABS, 0, 0, 4),                    // 0: seccomp_data.arch
        op(JEQ, 0, 5, AUDIT_ARCH_X86_64),       // 1: another arch → 7 (the first program kills it)
        op(LD_ABS, 0, 0, 0),                    // 2: seccomp_data.nr
        op(JGE, 2, 0, X32_SYSCALL_BIT),         // 3: x32 → 6
        op(JEQ, 0, 2, SYS_CLONE3),              // 4: not clone3 → 7
        op(RET, 0, 0, RET_ERRNO | libc::ENOSYS as u32), // 5
        op(RET, 0, 0, RET_ERRNO | libc::EPERM as u32),  // 6
        op(RET, 0, 0, RET_ALLOW),               // 7
    ]
}

/// The program as the kernel reads it: `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`.
fn bytes(program: &[sock_filter]) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for instruction in program {
        out.extend_from_slice(&instruction.code.to_ne_bytes());
        out.push(instruction.jt);
        out.push(instruction.jf);
        out.extend_from_slice(&instruction.k.to_ne_bytes());
    }
    out
}
