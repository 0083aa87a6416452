// docs/errors.md and openapi.yaml's TaskError describe the step error catalogue (src/step-errors.ts):
// the page has one row per code, in the catalogue's order, with its flag and meaning; the
// description of `TaskError.code` names every code.
import { readFileSync } from 'node:fs'
import t from 'tap'
import YAML from 'yaml'
import { STEP_ERRORS } from '../src/step-errors.js'

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')
const FLAG = { true: 'yes', false: 'no', varies: 'varies' } as const

t.test('docs/errors.md has a row per code with its flag and meaning', async (t) => {
  const rows = [...read('docs/errors.md').matchAll(/^\| `([A-Z0-9_]+)` \| (\w+) \| (.+) \|$/gm)].map((m) => m.slice(1))
  t.same(
    rows,
    Object.entries(STEP_ERRORS).map(([code, e]) => [code, FLAG[String(e.retryable) as keyof typeof FLAG], e.meaning]),
  )
})

t.test("openapi.yaml's TaskError.code names every code", async (t) => {
  const description: string = YAML.parse(read('openapi.yaml')).components.schemas.TaskError.properties.code.description
  const named = new Set(description.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{6,}\b/g))
  t.same(
    Object.keys(STEP_ERRORS).filter((code) => !named.has(code)),
    [],
  )
})
