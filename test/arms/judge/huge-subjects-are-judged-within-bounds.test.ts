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
  const err = await judgeError({
    deps: { s1: { ...SHELL_OK, stdout: `${'a'.repeat(40)}b` } },
    input: { checks: [{ type: 'regex', pattern: '^(a|a)*$' }] },
  })
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

t.test('many strings each just under the match limit stop at the budget of the call', async (t) => {
  // Find the length at which one match of this pattern (missed by the scan) takes 5 ms or more
  // here, far under the 100 ms per-match limit (a loaded machine can slow one match several times
  // over), so only the budget can stop the call.
  const slow = /^(a|a)*$/
  const timed = (n: number) => {
    const started = performance.now()
    slow.test(`${'a'.repeat(n)}b`)
    return performance.now() - started
  }
  let n = 12
  while (timed(n) < 5 && n < 30) n++
  if (timed(n) > 25) n--
  const strings = Array.from({ length: 2000 }, () => `${'a'.repeat(n)}b`)
  const started = Date.now()
  const err = await judgeError({ deps: { s1: { result: strings } }, input: { checks: [{ type: 'regex', pattern: '^(a|a)*$' }] } })
  // Usually the budget stops it (CHECK_BUDGET_EXCEEDED); on a machine so loaded that one match
  // passes 100 ms, that match's own limit does first (INPUT_INVALID). Either way the call ends
  // refused, well before 10 s.
  if (/ran past their 2000 ms together/.test(err.message)) t.equal(err.code, 'CHECK_BUDGET_EXCEEDED', err.message)
  else t.match(err, { code: 'INPUT_INVALID', message: /matching took longer than 100 ms/ })
  t.ok(Date.now() - started < 4_000, `stopped after ${Date.now() - started} ms (2000 strings at about 5 ms each would take 10 s)`)
})
