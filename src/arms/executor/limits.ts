/**
 * The executor's limits and their defaults, in one place so the docs (docs/arms/executor.md) and
 * the code cannot drift. Every field can be overridden through `ExecutorOptions.limits`.
 *
 * ```ts
 * const limits = resolveLimits({ shellTimeoutMs: 2_000 }) // the rest stay at their defaults
 * ```
 */

const KiB = 1024
const MiB = 1024 * KiB

export interface ExecutorLimits {
  /** Wall clock of one shell command when the input names none. */
  shellTimeoutMs: number
  /** Bytes kept of stdout and of stderr each; past it the command is killed and `truncated` set. */
  shellOutputBytes: number
  /** Largest stdin accepted. */
  shellStdinBytes: number
  /** Most arguments, and most bytes of all arguments together. */
  shellMaxArgs: number
  shellArgsBytes: number
  /** RLIMIT_CPU: CPU seconds before the kernel kills the command. */
  shellCpuSeconds: number
  /** RLIMIT_AS: address space of each process in the sandbox. */
  shellMemoryBytes: number
  /** RLIMIT_FSIZE: largest file a command may write (into its private /tmp). */
  shellFileBytes: number
  /** RLIMIT_NPROC: processes of the sandbox user; counted across concurrent commands when running as root (they share uid 65534). */
  shellProcesses: number
  /** Size of the private tmpfs at /tmp. */
  shellTmpBytes: number
  /** Sandboxes running at once in this process (at least 1); more commands wait, within their step's time. */
  shellSandboxes: number
  /** Wall clock of one script when the input names none. */
  jsTimeoutMs: number
  /** QuickJS heap limit of one runtime. */
  jsMemoryBytes: number
  /** QuickJS stack limit; must stay well below V8's own stack, which runs the WASM. */
  jsStackBytes: number
  /** Largest script accepted. */
  jsCodeBytes: number
  /** Captured console output kept (characters, all lines together). */
  jsConsoleChars: number
  /** Largest result, as JSON text. */
  jsResultChars: number
  /** Scripts run at once, each in its own worker thread; more wait for a free worker. */
  jsWorkers: number
  /** Wall clock of one fetch, all redirects included. */
  fetchTimeoutMs: number
  /** Body bytes kept when the input names no `max_bytes`, and the most it may name. */
  fetchDefaultBytes: number
  fetchMaxBytes: number
  /** Redirects followed, each re-checked. */
  fetchRedirects: number
}

export const DEFAULT_LIMITS: Readonly<ExecutorLimits> = Object.freeze({
  shellTimeoutMs: 10_000,
  shellOutputBytes: 1 * MiB,
  shellStdinBytes: 1 * MiB,
  shellMaxArgs: 256,
  shellArgsBytes: 64 * KiB,
  shellCpuSeconds: 10,
  shellMemoryBytes: 256 * MiB,
  shellFileBytes: 16 * MiB,
  shellProcesses: 64,
  shellTmpBytes: 16 * MiB,
  shellSandboxes: 4,
  jsTimeoutMs: 5_000,
  jsMemoryBytes: 32 * MiB,
  jsStackBytes: 256 * KiB, // 1 MiB overflows V8's native stack before QuickJS notices
  jsCodeBytes: 256 * KiB,
  jsConsoleChars: 64 * KiB,
  jsResultChars: 1 * MiB,
  jsWorkers: 2,
  fetchTimeoutMs: 10_000,
  fetchDefaultBytes: 1 * MiB,
  fetchMaxBytes: 10 * MiB,
  fetchRedirects: 3,
})

export function resolveLimits(overrides: Partial<ExecutorLimits> = {}): Readonly<ExecutorLimits> {
  const limits = { ...DEFAULT_LIMITS, ...overrides }
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`executor limit ${key} must be a non-negative integer`)
  }
  return Object.freeze(limits)
}
