// Tries each system call the sandbox's seccomp filter refuses, with arguments that would succeed
// (or fail for another reason) without the filter, and prints "name errno" per call (0: it worked).
// Threads and plain fork must still work: glibc starts them with clone3, then clone.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *name, long result) { printf("%s %d\n", name, result < 0 ? errno : 0); }

static void *nothing(void *arg) { return arg; }

/* clone without a new stack: a child that does start returns here, and leaves at once. */
static long clone_with(unsigned long flags) {
  long pid = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
  if (pid == 0) _exit(0);
  if (pid > 0) waitpid((pid_t)pid, 0, 0);
  return pid;
}

int main(void) {
  report("ptrace", syscall(SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0));
  report("keyctl", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 1));
  report("unshare", syscall(SYS_unshare, CLONE_NEWUSER));
  report("clone_newuser", clone_with(CLONE_NEWUSER));
  report("clone_newnet", clone_with(CLONE_NEWNET));
  report("clone3", syscall(435 /* SYS_clone3 */, 0, 0));
  report("setns", syscall(SYS_setns, 0, 0));
  report("mount", syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, 0));
  report("io_uring_setup", syscall(425 /* SYS_io_uring_setup */, 1, 0));
  report("userfaultfd", syscall(SYS_userfaultfd, 1 /* UFFD_USER_MODE_ONLY */));
  report("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0));
  report("bpf", syscall(SYS_bpf, 0, 0, 0));
  report("process_vm_readv", syscall(SYS_process_vm_readv, getppid(), 0, 0, 0, 0, 0));
  report("ioctl_tiocsti", syscall(SYS_ioctl, 0, 0x5412 /* TIOCSTI */, "x"));
  report("x32_getpid", syscall(0x40000000 | 39));
  report("plain_clone", clone_with(0));

  pthread_t thread;
  int failed = pthread_create(&thread, 0, nothing, 0);
  if (!failed) failed = pthread_join(thread, 0);
  printf("thread %d\n", failed);
  pid_t child = fork();
  if (child == 0) _exit(0);
  report("fork", child < 0 ? -1 : waitpid(child, 0, 0));
  return 0;
}
