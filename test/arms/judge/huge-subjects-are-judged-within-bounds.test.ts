import t from 'tap'

import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { judge, judgeError, SHELL_OK } from './judge-fixture.js'

const huge = { s1: { ...SHELL_OK, stdout: `${'a'.repeat(5_000_000)}\nthe end\n` } }

t.test('a regex reads the first 100000 characters of a 5 MB string, and says so', async (t) => {
  const started = Date.now()
  const err = await judgeError({ deps: huge, input: { checks: [{ type: 'regex', pattern: 'the end' }] } })
  t.match(err.message, /read up to their first 100000 characters/)
  t.ok(Date.now() - started < 2_000, 'quickly')
  t.ok(await judge({ deps: huge, input: { checks: [{ type: 'contains', value: 'the end' }] } }), 'plain contains reads it all')
})

t.test('patterns that backtrack in JavaScript are matched in linear time', async (t) => {
  // `^(a|a)*$` on 40 a's and a b takes JavaScript's engine longer than the universe has; `^(a+)+$`
  // on 5,000 of them as well. The Rust engine answers both at once.
  const started = Date.now()
  for (const [pattern, stdout] of [
    ['^(a|a)*$', `${'a'.repeat(40)}b`],
    ['^(a+)+$', `${'a'.repeat(5_000)}b`],
  ] as const) {
    const err = await judgeError({
      deps: { s1: { ...SHELL_OK, stdout } },
      input: { checks: [{ type: 'regex', pattern, path: 's1.stdout' }] },
    })
    t.match(err, { code: 'VALIDATION_FAILED', message: /no match in 1 string/ }, pattern)
    t.ok(
      await judge({
        deps: { s1: { ...SHELL_OK, stdout: 'a'.repeat(5_000) } },
        input: { checks: [{ type: 'regex', pattern, path: 's1.stdout' }] },
      }),
      `${pattern} matches a run of a's`,
    )
  }
  t.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`)
})

t.test('the model is sent a bounded excerpt of the subject', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: '../../arms/judge/fixtures/verdicts-pass.json' })
  await judge({ deps: huge, criteria: ['The summary names the root cause'], llm: new OpenAiProvider({ baseUrl: url }) })
  t.ok(requests[0]!.raw.length < 20_000, `request of ${requests[0]!.raw.length} bytes`)
  t.match(requests[0]!.raw, /subject cut at 12000|more chars/)
})

t.test('a json_schema pattern that backtracks is stopped by the time limit too', async (t) => {
  const stdout = `${'a'.repeat(40)}b`
  for (const schema of [
    { type: 'string', pattern: '^(a|a)*$' },
    { type: 'object', patternProperties: { '^(a|a)*$': { type: 'string' } } },
  ]) {
    const deps = { s1: { result: schema.type === 'string' ? stdout : { [stdout]: 1 } } }
    const started = Date.now()
    const err = await judgeError({ deps, input: { checks: [{ type: 'json_schema', schema, path: 's1.result' }] } })
    t.match(err, { code: 'INPUT_INVALID', message: /validating against the schema took longer than 250 ms/ }, JSON.stringify(schema))
    t.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`)
  }
})

t.test('a pattern over many strings is matched in time linear in all of them', async (t) => {
  const strings = Array.from({ length: 2000 }, () => `${'a'.repeat(30)}b`)
  const started = Date.now()
  const err = await judgeError({ deps: { s1: { result: strings } }, input: { checks: [{ type: 'regex', pattern: '^(a|a)*$' }] } })
  t.match(err, { code: 'VALIDATION_FAILED', message: /no match in 2000 string\(s\)/ })
  t.ok(Date.now() - started < 4_000, `answered after ${Date.now() - started} ms`)
})
