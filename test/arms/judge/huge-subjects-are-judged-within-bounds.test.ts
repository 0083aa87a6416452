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

t.test('a pattern that backtracks past the scan is stopped by the time limit', async (t) => {
  const started = Date.now()
  const err = await judgeError({ deps: { s1: { ...SHELL_OK, stdout: `${'a'.repeat(40)}b` } }, input: { checks: [{ type: 'regex', pattern: '^(a|a)*$' }] } })
  t.match(err, { code: 'INPUT_INVALID', message: /took longer than 100 ms/ })
  t.ok(Date.now() - started < 2_000)
})

t.test('the model is sent a bounded excerpt of the subject', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: '../../arms/judge/fixtures/verdicts-pass.json' })
  await judge({ deps: huge, criteria: ['The summary names the root cause'], llm: new OpenAiProvider({ baseUrl: url }) })
  t.ok(requests[0]!.raw.length < 20_000, `request of ${requests[0]!.raw.length} bytes`)
  t.match(requests[0]!.raw, /subject cut at 12000|more chars/)
})

t.test('a json_schema pattern that backtracks is stopped by the time limit too', async (t) => {
  const stdout = `${'a'.repeat(40)}b`
  for (const schema of [{ type: 'string', pattern: '^(a|a)*$' }, { type: 'object', patternProperties: { '^(a|a)*$': { type: 'string' } } }]) {
    const deps = { s1: { result: schema.type === 'string' ? stdout : { [stdout]: 1 } } }
    const started = Date.now()
    const err = await judgeError({ deps, input: { checks: [{ type: 'json_schema', schema, path: 's1.result' }] } })
    t.match(err, { code: 'INPUT_INVALID', message: /validating against the schema took longer than 1000 ms/ }, JSON.stringify(schema))
    t.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`)
  }
})
