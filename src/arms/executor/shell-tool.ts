/**
 * The `shell` tool: one allowed command, run from argv (never through a shell) inside the sandbox
 * of sandbox.ts, with a wall-clock timeout, output caps and the step's abort signal. On timeout,
 * cap or abort the whole tree is killed with SIGKILL (process-tree.ts: the process group, and the
 * sandbox's init, which bubblewrap puts in a session of its own; the PID namespace ends with it).
 *
 * ```ts
 * await shell.run({ command: 'wc', args: ['-l'], stdin: 'a\nb\n' }, 30_000, signal)
 * // → { exit_code: 0, stdout: '2\n', stderr: '', truncated: false, duration_ms: 12, signal: null }
 * ```
 */
import { ArmError } from '../contract.js'
import { abortError } from './abort.js'
import * as check from './input.js'
import type { ExecutorLimits } from './limits.js'
import { killTree } from './process-tree.js'
import { refusal } from './refused-options.js'
import {
  type AllowedCommand,
  probeSandbox,
  type ResolvedCommand,
  resolveCommands,
  type SandboxProbe,
  type SandboxTools,
  sandboxArgv,
  sharedLibraries,
  spawnSandbox,
} from './sandbox.js'
import { SandboxSlots } from './sandbox-slots.js'
import { UidPool } from './uid-pool.js'

/** Text tools present on Debian 12; no shells, interpreters or network tools. */
export const DEFAULT_SHELL_ALLOW: readonly string[] = Object.freeze([
  'wc',
  'cat',
  'head',
  'tail',
  'sort',
  'uniq',
  'grep',
  'sed',
  'awk',
  'cut',
  'tr',
  'echo',
  'printf',
  'date',
  'seq',
  'sleep',
  'ls',
  'base64',
  'sha256sum',
  'md5sum',
  'rev',
  'fold',
  'nl',
  'expr',
  'true',
  'false',
])

/** Never allowed, whatever the configuration says: they would turn the allow-list into "anything". */
const NEVER_ALLOW = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'csh',
  'tcsh',
  'fish',
  'busybox',
  'env',
  'xargs',
  'nohup',
  'timeout',
  'nice',
  'setsid',
  'unshare',
  'nsenter',
  'chroot',
  'sudo',
  'su',
  'doas',
  'bwrap',
  'prlimit',
  'setpriv',
  'python',
  'python3',
  'perl',
  'ruby',
  'node',
  'nodejs',
  'php',
  'lua',
  'tclsh',
  'expect',
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'telnet',
  'ftp',
  'rsync',
  // They start programs whatever the allow-list checks of their options: pagers and editors on a
  // key, git through its configuration, aliases and hooks, the rest by design.
  'git',
  'less',
  'more',
  'most',
  'pager',
  'man',
  'vi',
  'vim',
  'nvim',
  'view',
  'ex',
  'ed',
  'red',
  'emacs',
  'nano',
  'pico',
  'dc',
  'm4',
  'make',
  'parallel',
  'time',
  'stdbuf',
  'flock',
  'watch',
  'script',
  'setarch',
  'taskset',
  'ionice',
  'chrt',
  'runuser',
  'sg',
  'newgrp',
  'capsh',
  'strace',
  'ltrace',
  'gdb',
  'valgrind',
  'run-parts',
  'systemd-run',
  'pkexec',
  'ld.so',
])

/** Interpreters under a versioned name (python3.11, perl5.36, lua5.4…), never allowed either. */
const INTERPRETER = /^(python|perl|ruby|lua|tclsh|wish|php|node|pypy|jython|guile|racket)/

const COMMAND_NAME = /^[a-z0-9][a-z0-9._+-]{0,63}$/
const STDERR_IN_MESSAGE = 500

export interface ShellOutput {
  exit_code: number | null
  stdout: string
  stderr: string
  truncated: boolean
  duration_ms: number
  signal: string | null
}

/** Checks a configured allow-list: bare names only, none of the never-allowed. Throws at start-up. */
export function checkShellAllow(names: readonly string[]): void {
  for (const name of names) {
    if (!COMMAND_NAME.test(name)) throw new TypeError(`executor shell allow-list: '${name}' is not a bare command name`)
    if (NEVER_ALLOW.has(name) || INTERPRETER.test(name))
      throw new TypeError(`executor shell allow-list: '${name}' can run arbitrary code and is never allowed`)
  }
}

export class ShellTool {
  private readonly commands: Map<string, AllowedCommand>
  /** Each command with its libraries, listed on its first run and kept. */
  private readonly resolved = new Map<string, Promise<ResolvedCommand>>()
  readonly missing: readonly string[]
  private probe: Promise<SandboxProbe> | undefined
  private readonly uids = new UidPool()
  private readonly slots: SandboxSlots

  constructor(
    allow: readonly string[],
    private readonly tools: SandboxTools,
    private readonly limits: Readonly<ExecutorLimits>,
  ) {
    checkShellAllow(allow)
    this.slots = new SandboxSlots(limits.shellSandboxes)
    const { found, missing } = resolveCommands(allow)
    this.commands = found
    this.missing = missing
  }

  private withLibraries(command: AllowedCommand): Promise<ResolvedCommand> {
    let resolved = this.resolved.get(command.name)
    if (!resolved) {
      resolved = sharedLibraries(command.binary).then((libraries) => ({ ...command, libraries }))
      this.resolved.set(command.name, resolved)
      resolved.catch(() => this.resolved.delete(command.name)) // the next run tries again
    }
    return resolved
  }

  /** Whether the sandbox works; tried once per process, then cached. */
  sandbox(): Promise<SandboxProbe> {
    this.probe ??= probeSandbox(this.tools, this.limits)
    return this.probe
  }

  async run(input: Record<string, unknown>, stepTimeoutMs: number, signal: AbortSignal): Promise<ShellOutput> {
    const l = this.limits
    check.refuseUnknown(input, ['command', 'args', 'stdin', 'timeout_ms', 'allow_nonzero_exit'])
    const name = check.requiredString(input, 'command', 256)
    const args = check.optionalStringArray(input, 'args', l.shellMaxArgs, l.shellArgsBytes)
    const stdin = check.optionalString(input, 'stdin', l.shellStdinBytes)
    if (stdin !== undefined && check.utf8Bytes(stdin) > l.shellStdinBytes)
      throw check.invalid(`'stdin' is larger than ${l.shellStdinBytes} bytes`)
    const timeoutMs = Math.min(check.optionalInteger(input, 'timeout_ms', 1, 86_400_000) ?? l.shellTimeoutMs, stepTimeoutMs)
    const allowNonzero = check.optionalBoolean(input, 'allow_nonzero_exit') ?? false

    const command = this.commands.get(name)
    if (!command) {
      const why = this.missing.includes(name)
        ? 'is allowed but not installed here'
        : COMMAND_NAME.test(name)
          ? 'is not on the allow-list'
          : 'is not a bare command name'
      throw new ArmError('COMMAND_NOT_ALLOWED', `command '${name.slice(0, 64)}' ${why}`)
    }
    const refused = refusal(name, args)
    if (refused) {
      throw new ArmError('COMMAND_NOT_ALLOWED', `'${name} ${refused.arg.slice(0, 64)}' ${refused.why}, which the allow-list forbids`)
    }
    if (signal.aborted) throw abortError(signal)
    const probe = await this.sandbox()
    if (!probe.ok) throw new ArmError('SANDBOX_UNAVAILABLE', `the shell sandbox does not work here: ${probe.detail}`)
    if (signal.aborted) throw abortError(signal) // aborted while the probe ran: the listener below would never fire

    const resolved = await this.withLibraries(command)
    const output = await this.inSlot(name, stepTimeoutMs, signal, (msLeft) => {
      if (signal.aborted) throw abortError(signal)
      const ms = Math.min(timeoutMs, msLeft)
      return this.spawnSandboxed(resolved, args, stdin, ms, signal).then((result) => {
        if (result.kind === 'aborted') throw abortError(signal)
        if (result.kind === 'timeout') throw new ArmError('COMMAND_TIMEOUT', `'${name}' ran longer than ${ms} ms and was killed`)
        return result.output
      })
    })
    return this.judged(name, output, allowNonzero)
  }

  /**
   * Runs `body` once one of the sandboxes is free, with the step's time that is left; the wait
   * counts against the step's time like the command does.
   */
  private async inSlot<T>(name: string, stepTimeoutMs: number, signal: AbortSignal, body: (msLeft: number) => Promise<T>): Promise<T> {
    const waitStarted = performance.now()
    if (!(await this.slots.acquire(stepTimeoutMs, signal))) {
      throw new ArmError(
        'COMMAND_TIMEOUT',
        `'${name}' did not start: no sandbox of ${this.slots.size} came free within ${stepTimeoutMs} ms`,
      )
    }
    try {
      return await body(Math.max(1, Math.floor(stepTimeoutMs - (performance.now() - waitStarted))))
    } finally {
      this.slots.release()
    }
  }

  /** A finished command's output, or the error its exit makes of it. */
  private judged(name: string, out: ShellOutput, allowNonzero: boolean): ShellOutput {
    if (out.exit_code !== 0 && out.stderr.startsWith('bwrap: ')) {
      throw new ArmError('SANDBOX_UNAVAILABLE', `the shell sandbox failed: ${out.stderr.slice(0, STDERR_IN_MESSAGE)}`)
    }
    // A command we killed for its output size is reported with what it wrote, not as a failure.
    if (out.exit_code !== 0 && !out.truncated && !allowNonzero) {
      const status = out.exit_code === null ? `was killed by ${out.signal}` : `exited with code ${out.exit_code}`
      const stderr = out.stderr.slice(0, STDERR_IN_MESSAGE).trim()
      throw new ArmError('COMMAND_FAILED', `'${name}' ${status}${stderr ? `: ${stderr}` : ''}`)
    }
    return out
  }

  private spawnSandboxed(
    command: ResolvedCommand,
    args: string[],
    stdin: string | undefined,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<{ kind: 'done'; output: ShellOutput } | { kind: 'timeout' } | { kind: 'aborted' }> {
    const cap = this.limits.shellOutputBytes
    const hostId = this.uids.acquire()
    const argv = sandboxArgv(this.tools, command, args, this.limits, hostId)
    const started = performance.now()
    const running = new Promise<{ kind: 'done'; output: ShellOutput } | { kind: 'timeout' } | { kind: 'aborted' }>((resolve, reject) => {
      // detached: its own process group, so one kill reaches prlimit/setpriv/bwrap and what they exec.
      const child = spawnSandbox(argv, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
      const out = { stdout: [] as Buffer[], stderr: [] as Buffer[], bytes: { stdout: 0, stderr: 0 } }
      let truncated = false
      let ended: 'timeout' | 'aborted' | undefined

      let lastKill = 0
      const killGroup = (): void => {
        lastKill = performance.now()
        if (child.pid !== undefined) killTree(child.pid)
      }
      const timer = setTimeout(() => {
        ended ??= 'timeout'
        killGroup()
      }, timeoutMs)
      const onAbort = (): void => {
        ended ??= 'aborted'
        killGroup()
      }
      signal.addEventListener('abort', onAbort, { once: true })

      for (const stream of ['stdout', 'stderr'] as const) {
        child[stream]!.on('data', (chunk: Buffer) => {
          const room = cap - out.bytes[stream]
          if (room <= 0) {
            // A byte past the cap: the output is cut. Output that filled the cap exactly in earlier
            // chunks has not killed the command yet; one still writing after a kill escaped it (a
            // process bubblewrap cloned while the kill read /proc). Kill, at most every 100 ms.
            truncated = true
            if (performance.now() - lastKill > 100) killGroup()
            return
          }
          const kept = chunk.length > room ? chunk.subarray(0, room) : chunk
          out[stream].push(kept)
          out.bytes[stream] += kept.length
          if (chunk.length > room) {
            truncated = true
            killGroup()
          }
        })
      }
      // The command may exit without reading its stdin; that EPIPE is not an error of ours.
      child.stdin!.on('error', () => {})
      child.stdin!.end(stdin ?? '')

      child.on('error', (err) => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        reject(new ArmError('SANDBOX_UNAVAILABLE', `could not start the sandbox: ${err.message}`))
      })
      child.on('close', (code, sig) => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        if (ended) return resolve({ kind: ended })
        resolve({
          kind: 'done',
          output: {
            exit_code: code,
            stdout: storableText(Buffer.concat(out.stdout)),
            stderr: storableText(Buffer.concat(out.stderr)),
            truncated,
            duration_ms: Math.round(performance.now() - started),
            signal: sig,
          },
        })
      })
    })
    // By 'close' the sandbox is gone: its PID namespace dies with bubblewrap's init, so no process
    // of this uid is left to count against the next command that gets it.
    return running.finally(() => this.uids.release(hostId))
  }
}

/**
 * A stream's bytes as text a store can keep: UTF-8, with each NUL byte (binary output, `head -c N
 * /dev/zero`) read as U+FFFD, since PostgreSQL's text and jsonb refuse NUL. Invalid UTF-8 decodes
 * to U+FFFD as well, never to a lone surrogate.
 */
function storableText(bytes: Buffer): string {
  return bytes.toString('utf8').replaceAll('\u0000', '\uFFFD')
}
