// The model path against a local OpenAI-compatible server replaying recorded replies: the real
// client, the real structured-output checks, no mocks.
import t from 'tap'

import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { judge, judgeError } from './judge-fixture.js'

const deps = {
  s1: {
    query: 'incident 4411',
    hits: [{ title: 'INC-4411', text: 'Writes failed from 02:10 to 02:55.' }],
    summary: 'The disk on db-2 filled up, so writes failed for 45 minutes.',
  },
}
const criteria = ['The summary names the root cause', 'mentions db-2']

t.test('a criterion the model finds met is reported with method model; clear ones stay deterministic', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: '../../arms/judge/fixtures/verdicts-pass.json' })
  const out = await judge({ deps, criteria, goal: 'Summarise incident 4411', llm: new OpenAiProvider({ baseUrl: url }) })
  t.match(out.checks, [
    { criterion: 'mentions db-2', method: 'deterministic', passed: true },
    { criterion: 'The summary names the root cause', method: 'model', passed: true, detail: /disk on db-2/ },
  ])
  t.equal(requests.length, 1, 'one call for all unclear criteria')
  const body = requests[0]!.body as {
    messages: Array<{ content: string }>
    response_format: { json_schema: { name: string; strict: boolean } }
  }
  t.match(body.response_format.json_schema, { name: 'verdicts', strict: true })
  const prompt = body.messages.map((m) => m.content).join('\n')
  t.match(prompt, /1\. The summary names the root cause/)
  t.notMatch(prompt, /mentions db-2/, 'criteria checked deterministically are not sent')
  t.match(prompt, /<<<OUTPUTS[\s\S]*db-2 filled up[\s\S]*OUTPUTS>>>/)
})

t.test('a criterion the model finds unmet fails the step with its reason', async (t) => {
  const { url } = await replayServer(t, { fixture: '../../arms/judge/fixtures/verdicts-fail.json' })
  const err = await judgeError({ deps, criteria, llm: new OpenAiProvider({ baseUrl: url }) })
  t.equal(err.code, 'VALIDATION_FAILED')
  t.match(err.message, /"The summary names the root cause" \(model\): It describes the outage window but never says why/)
})

t.test('a server that fails is the provider error, retryable, not a verdict', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/server-error.json', status: 500 })
  const err = await judgeError({ deps, criteria, llm: new OpenAiProvider({ baseUrl: url }) })
  t.match(err, { code: 'LLM_UNAVAILABLE', retryable: true })
})
