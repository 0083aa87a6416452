// Reading and writing the corpus's JSON Lines files (test/corpus/*.jsonl) in their one
// layout: one object per line, `", "` and `": "` separators, UTF-8 text unescaped.

import { readFileSync, writeFileSync } from 'node:fs'

export const CORPUS_DIR = new URL('../test/corpus/', import.meta.url).pathname

/** The items of one file, in order. */
export function readItems(path) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, n) => {
      try {
        return JSON.parse(l)
      } catch (e) {
        throw new Error(`${path}:${n + 1}: ${e.message}`)
      }
    })
}

/** One value in the corpus layout. */
export function dump(v) {
  if (Array.isArray(v)) return `[${v.map(dump).join(', ')}]`
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${dump(x)}`)
      .join(', ')}}`
  }
  return JSON.stringify(v)
}

export function writeItems(path, items) {
  writeFileSync(path, `${items.map(dump).join('\n')}\n`)
}
