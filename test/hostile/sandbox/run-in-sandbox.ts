// Compiles the C programs beside this file and runs a binary alone in the executor's own sandbox
// command line (sandboxArgv, spawnSandbox): for what no allow-listed command can do, like calling
// a refused system call or forking without end.
import { type ChildProcess, execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { DEFAULT_LIMITS, type ExecutorLimits } from '../../../src/arms/executor/limits.js'
import { sandboxArgv, sandboxTools, sharedLibraries, spawnSandbox } from '../../../src/arms/executor/sandbox.js'

export const HAS_COMPILER = ((): boolean => {
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/** `sandbox/<name>.c` compiled into a directory the sandbox user can read; removed at teardown. */
export function compiled(t: { teardown: (fn: () => void) => void }, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  chmodSync(dir, 0o755) // readable by the unprivileged uid bubblewrap runs as under root
  const binary = join(dir, name)
  execFileSync('cc', ['-O', '-o', binary, join(import.meta.dirname, `${name}.c`), '-lpthread'])
  return binary
}

export async function startInSandbox(
  name: string,
  binary: string,
  args: string[],
  opts: { limits?: Partial<ExecutorLimits>; hostId?: number } = {},
): Promise<ChildProcess> {
  const command = { name, binary, libraries: await sharedLibraries(binary) }
  const argv = sandboxArgv(sandboxTools(), command, args, { ...DEFAULT_LIMITS, ...opts.limits }, opts.hostId)
  return spawnSandbox(argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
}

/** Runs `binary` to its end: its exit code, stdout and stderr. */
export async function inSandbox(
  name: string,
  binary: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = await startInSandbox(name, binary, args)
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s))
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}
