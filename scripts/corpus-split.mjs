#!/usr/bin/env node
// The corpus's one train/test split. Every item of test/corpus/injection*.jsonl and
// test/corpus/pii*.jsonl carries `"split": "train"` or `"split": "test"`, committed with it.
// An item is `test` iff the first four bytes of SHA-256("ganglion-corpus-split-1:" + key),
// read as a big-endian unsigned integer, mod 100 are below 30; `key` is the item's `group`
// when it has one (variants of one text fall on the same side), else its `id`.
//
//   node scripts/corpus-split.mjs          # fill in every missing split (existing ones stay)
//   node scripts/corpus-split.mjs --check  # exit 1, listing items whose split is missing or
//                                          # disagrees with the rule; change nothing

import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS_DIR, readItems, writeItems } from './corpus-jsonl.mjs'

export const SPLIT_SALT = 'ganglion-corpus-split-1:'
export const TEST_PERCENT = 30

/** `test` or `train` for an item, by the rule above. */
export function splitOf(item) {
  const key = item.group ?? item.id
  const head = createHash('sha256')
    .update(SPLIT_SALT + key)
    .digest()
    .readUInt32BE(0)
  return head % 100 < TEST_PERCENT ? 'test' : 'train'
}

export function corpusFiles(dir = CORPUS_DIR) {
  return readdirSync(dir)
    .filter((f) => /^(injection|pii).*\.jsonl$/.test(f))
    .sort()
}

function main() {
  const check = process.argv.includes('--check')
  const problems = []
  const counts = { train: 0, test: 0 }
  for (const f of corpusFiles()) {
    const path = join(CORPUS_DIR, f)
    const items = readItems(path)
    let filled = 0
    for (const it of items) {
      const want = splitOf(it)
      if (it.split === undefined && !check) {
        it.split = want
        filled++
      } else if (it.split !== want) {
        problems.push(`${f}: ${it.id}: split ${JSON.stringify(it.split)}, the rule gives ${want}`)
      }
      counts[it.split ?? want] = (counts[it.split ?? want] ?? 0) + 1
    }
    if (filled > 0) {
      writeItems(path, items)
      console.log(`${f}: filled ${filled} splits`)
    }
  }
  console.log(`${counts.train} train, ${counts.test} test`)
  if (problems.length > 0) {
    console.error(problems.join('\n'))
    if (check) process.exit(1)
  }
}

main()
