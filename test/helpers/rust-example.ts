/**
 * The path of a built example of the Rust workspace, for tests that compare a TypeScript port
 * with the core: the release build (`cargo build --release --example NAME`) or the debug build
 * `cargo test` leaves (it compiles every example), whichever was built last, so a stale one
 * left by an older build is not what the port is held to. In CI, where `npm test` runs
 * `cargo test` first, the comparisons run too. `undefined` when neither is built.
 *
 * ```ts
 * const bin = rustExample('row_matches') // '/…/target/debug/examples/row_matches'
 * ```
 */
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export function rustExample(name: string): string | undefined {
  const built = ['release', 'debug']
    .map((profile) => `${ROOT}target/${profile}/examples/${name}`)
    .map((path) => ({ path, at: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? -1 }))
    .filter((b) => b.at >= 0)
    .sort((a, b) => b.at - a.at)
  return built[0]?.path
}
