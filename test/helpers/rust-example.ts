/**
 * The path of a built example of the Rust workspace, for tests that compare a TypeScript port
 * with the core: the release build when there is one (`cargo build --release --example NAME`),
 * else the debug build `cargo test` leaves (it compiles every example), so in CI, where
 * `npm test` runs `cargo test` first, the comparisons run too. `undefined` when neither is built.
 *
 * ```ts
 * const bin = rustExample('row_matches') // '/…/target/release/examples/row_matches'
 * ```
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export function rustExample(name: string): string | undefined {
  return ['release', 'debug'].map((profile) => `${ROOT}target/${profile}/examples/${name}`).find((path) => existsSync(path))
}
