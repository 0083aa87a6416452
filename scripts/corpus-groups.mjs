#!/usr/bin/env node
// Gives near-duplicate injection corpus items a common `group`, so that the split
// (scripts/corpus-split.mjs) puts variants of one text on the same side.
//
// Two items are variants when they spell the same letters once obfuscation is undone, or
// share a rare normalised line (the inserted attack of an indirect item, the payload of a code
// attack), the same 80-character opening (one template filled with different requests), between
// attacks the same 40-character opening (one harmful request with different optimised
// suffixes), or at least MIN_SHARED rare word 8-grams. "Rare" means the feature occurs in at
// most MAX_DF items: a phrase common to a whole family links nothing, which keeps components
// from swallowing a family. Components are found by union-find.
//
// Items that already have a `group` keep it; an item in a component of two or more items
// gets `grp-<smallest id of the component>` (or the component's existing group), unless it
// already has a `split` (its split was decided by its id and stays). The script prints the
// component sizes. Deterministic: same files in, same groups out. It was run once, before the
// split was first written; files added later bring their own groups.
//
//   node scripts/corpus-groups.mjs            # rewrite the files
//   node scripts/corpus-groups.mjs --dry-run  # print the components only

import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS_DIR as DIR, readItems, writeItems } from './corpus-jsonl.mjs'

const MAX_DF = 12
const MIN_SHARED = 3
const MIN_LINE = 12
const OPENING = 80
// Attacks built from one request (an optimised suffix, a template around the same goal) open
// with that request: a shorter shared opening is enough among attacks.
const ATTACK_OPENING = 40
const MAX_COMPONENT = 40

const norm = (s) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
// The letters of a text with obfuscation undone (zero-width and bidi characters dropped,
// Cyrillic look-alikes and leet digits read as Latin letters): the obfuscated copies of one
// sentence share it.
const LOOK_ALIKE = { а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ѕ: 's', ј: 'j', ԁ: 'd' }
const LEET = { 0: 'o', 1: 'i', 3: 'e', 4: 'a', 5: 's', 7: 't' }
const skeleton = (s) =>
  [...norm(s)]
    .map((c) => LOOK_ALIKE[c] ?? LEET[c] ?? c)
    .filter((c) => /[a-z]/.test(c))
    .join('')
const words = (s) =>
  norm(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1)

const files = readdirSync(DIR)
  .filter((f) => /^injection.*\.jsonl$/.test(f))
  .sort()
const items = []
const docs = new Map()
for (const f of files) {
  const rows = readItems(join(DIR, f))
  docs.set(f, rows)
  items.push(...rows)
}

// feature -> item indices
const postings = new Map()
const add = (key, i) => {
  let p = postings.get(key)
  if (!p) {
    p = []
    postings.set(key, p)
  }
  if (p[p.length - 1] !== i) p.push(i)
}
items.forEach((it, i) => {
  const lines = new Set(
    it.text
      .split('\n')
      .map(norm)
      .filter((l) => l.length >= MIN_LINE && !l.startsWith('|') && l.split(' ').length >= 3),
  )
  for (const l of lines) add(`L ${l}`, i)
  const skel = skeleton(it.text)
  if (skel.length >= 16) add(`S ${skel}`, i)
  const open = norm(it.text)
  if (open.length >= OPENING) add(`O ${open.slice(0, OPENING)}`, i)
  if (it.label === 'attack' && open.length >= ATTACK_OPENING) add(`A ${open.slice(0, ATTACK_OPENING)}`, i)
  const w = words(it.text)
  const grams = new Set()
  for (let k = 0; k + 8 <= w.length; k++) grams.add(w.slice(k, k + 8).join(' '))
  for (const g of grams) add(`W ${g}`, i)
})

const parent = items.map((_, i) => i)
const find = (i) => {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]]
    i = parent[i]
  }
  return i
}
const union = (a, b) => {
  const [x, y] = [find(a), find(b)]
  if (x !== y) parent[Math.max(x, y)] = Math.min(x, y)
}

// Pair -> strength: a shared line or opening counts MIN_SHARED, a shared 8-gram one.
const strength = new Map()
for (const [key, p] of postings) {
  if (p.length < 2 || p.length > MAX_DF) continue
  const w = key[0] === 'W' ? 1 : MIN_SHARED
  for (let a = 0; a < p.length; a++) {
    for (let b = a + 1; b < p.length; b++) {
      const pair = `${p[a]} ${p[b]}`
      strength.set(pair, (strength.get(pair) ?? 0) + w)
    }
  }
}
// Strongest links first; a link that would make a component larger than MAX_COMPONENT is
// left out, so one chain of loosely related prompts cannot absorb a family.
const size = items.map(() => 1)
const edges = [...strength]
  .filter(([, n]) => n >= MIN_SHARED)
  .map(([pair, n]) => [n, ...pair.split(' ').map(Number)])
  .sort((x, y) => y[0] - x[0] || x[1] - y[1] || x[2] - y[2])
let skipped = 0
for (const [, a, b] of edges) {
  const [x, y] = [find(a), find(b)]
  if (x === y) continue
  if (size[x] + size[y] > MAX_COMPONENT) {
    skipped++
    continue
  }
  union(x, y)
  size[find(x)] = size[x] + size[y]
}
console.log(`${edges.length} links, ${skipped} left out by the component cap`)
// Items that already share a group stay together.
const byGroup = new Map()
items.forEach((it, i) => {
  if (!it.group) return
  if (byGroup.has(it.group)) union(byGroup.get(it.group), i)
  else byGroup.set(it.group, i)
})

const comps = new Map()
items.forEach((_, i) => {
  const r = find(i)
  if (!comps.has(r)) comps.set(r, [])
  comps.get(r).push(i)
})
const sizes = new Map()
for (const members of comps.values()) {
  if (members.length < 2) continue
  sizes.set(members.length, (sizes.get(members.length) ?? 0) + 1)
  const existing = members.map((i) => items[i].group).find(Boolean)
  const ids = members.map((i) => items[i].id).sort()
  const name = existing ?? `grp-${ids[0]}`
  // An item whose split is already committed keeps its key: a new group would move it.
  for (const i of members) if (!items[i].group && !items[i].split) items[i].group = name
  const fams = new Map()
  for (const i of members) {
    const f = `${items[i].label}/${items[i].family ?? items[i].category}`
    fams.set(f, (fams.get(f) ?? 0) + 1)
  }
  if (members.length >= 8) {
    console.log(`component ${name}: ${members.length} items (${[...fams].map(([f, n]) => `${f} ${n}`).join(', ')})`)
  }
}
console.log(
  'component sizes (size x count):',
  [...sizes]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}x${n}`)
    .join(' '),
)
const grouped = items.filter((it) => it.group).length
console.log(`${grouped} of ${items.length} items in ${[...sizes.values()].reduce((a, b) => a + b, 0)} groups`)

if (!process.argv.includes('--dry-run')) {
  for (const [f, rows] of docs) {
    writeItems(join(DIR, f), rows)
  }
}
