// Runs the built `ganglion` client as its own process, as a user's shell runs it, with only the
// environment a test gives it (no GANGLION_URL or GANGLION_API_KEY leaks in from the machine).
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { ensureBuilt } from '../fixtures/ganglion-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliProcess {
  child: ChildProcess
  /** Resolves once stderr holds `text` (or rejects when the process ends first). */
  stderrHas(text: string): Promise<void>
  done: Promise<CliResult>
}

export function startCli(args: string[], env: Record<string, string> = {}): CliProcess {
  ensureBuilt()
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const waiters: Array<() => void> = []
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
    for (const w of waiters) w()
  })
  const done = new Promise<CliResult>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
  return {
    child,
    done,
    stderrHas: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (stderr.includes(text)) resolve()
        }
        waiters.push(check)
        check()
        done.then(() => reject(new Error(`ganglion ${args.join(' ')} ended before printing ${JSON.stringify(text)}: ${stderr}`)))
      }),
  }
}

/** `ganglion <args>` to its end (a child process, so an in-process service keeps serving meanwhile). */
export function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return startCli(args, env).done
}
