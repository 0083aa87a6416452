/**
 * The two tarballs `packages/reflex/scripts/pack.mjs` writes, packed once per test process (CI has
 * built the addon and dist/ before the tests run), and the installs a user of them makes: into a
 * temporary project, by npm, with no Rust toolchain on the PATH.
 *
 * ```ts
 * const dir = tempDir(t, 'project-')
 * await npmInstall(dir, await packed())
 * ```
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export const run = promisify(execFile)

interface Teardown {
  teardown(fn: () => unknown): void
}

/** A new empty folder, removed at `t`'s teardown. */
export function tempDir(t: Teardown, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export interface Tarballs {
  /** `@ganglion/reflex`. */
  main: string
  /** `@ganglion/reflex-linux-x64-gnu`. */
  platform: string
}

let packing: Promise<Tarballs> | undefined

/** The tarballs, packed at the first call; their folder goes when the test process ends. */
export function packed(): Promise<Tarballs> {
  packing ??= (async () => {
    const dir = tempDir(t, 'reflex-tarballs-')
    const { stdout } = await run(process.execPath, [join(ROOT, 'packages/reflex/scripts/pack.mjs'), dir], { cwd: ROOT })
    const paths = stdout.trim().split('\n')
    const platform = paths.find((p) => basename(p).startsWith('ganglion-reflex-linux-x64-gnu-'))
    const main = paths.find((p) => p !== platform && basename(p).startsWith('ganglion-reflex-'))
    if (platform === undefined || main === undefined) throw new Error(`pack.mjs printed no two tarballs: ${stdout}`)
    return { main, platform }
  })()
  return packing
}

/**
 * The environment of a machine without Rust: PATH is node's own folder, /usr/bin and /bin (cargo
 * and rustc live in ~/.cargo/bin), and no variable of npm's (a parent `npm test -w …` would
 * otherwise steer the install), tap's or napi-rs's (`NAPI_RS_NATIVE_LIBRARY_PATH` would pick
 * another binary) is passed on. npm still reads the user's .npmrc through HOME.
 */
export function envWithoutRust(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|_?tap|napi_rs|cargo|rustup)/i.test(name) && !/^npm_config_(registry|cache|userconfig|cafile)$/i.test(name)) continue
    env[name] = value
  }
  return { ...env, PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'), ...extra }
}

/** `npm install`s both tarballs, and what `dir`'s package.json names besides, in `dir`, without Rust. */
export async function npmInstall(dir: string, tarballs: Tarballs): Promise<void> {
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarballs.main, tarballs.platform], {
    cwd: dir,
    env: envWithoutRust(),
  })
}
