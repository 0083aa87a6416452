import t from 'tap'

import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { PLAN_SCHEMA } from './fixtures/plan-schema.js'
import { replayServer } from './fixtures/replay-server.js'

const messages = [{ role: 'user' as const, content: 'Plan: find the incident report and summarise its cause.' }]

t.test('sends response_format json_schema (strict) and returns the parsed reply', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/structured-completion.json' })
  const llm = new OpenAiProvider({ baseUrl: url })
  const done = await llm.complete({ messages, schema: { name: 'plan', schema: PLAN_SCHEMA } })
  t.same(requests[0]?.body?.response_format, { type: 'json_schema', json_schema: { name: 'plan', schema: PLAN_SCHEMA, strict: true } })
  t.same(done.json, {
    steps: [
      { id: 's1', arm: 'retriever', action: 'Find the incident report' },
      { id: 's2', arm: 'planner', action: 'Summarise the cause' },
    ],
  })
  t.same(done.usage, { prompt: 88, completion: 41 })
})

t.test('a reply that is not JSON is LLM_BAD_OUTPUT, with its usage still reported', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/structured-not-json.json' })
  const llm = new OpenAiProvider({ baseUrl: url })
  await t.rejects(llm.complete({ messages, schema: { name: 'plan', schema: PLAN_SCHEMA } }), {
    code: 'LLM_BAD_OUTPUT',
    message: /not JSON/,
    usage: { prompt: 88, completion: 16 },
  })
})

t.test('JSON that does not match the schema is LLM_BAD_OUTPUT naming the place', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/structured-off-schema.json' })
  const llm = new OpenAiProvider({ baseUrl: url })
  await t.rejects(llm.complete({ messages, schema: { name: 'plan', schema: PLAN_SCHEMA } }), {
    code: 'LLM_BAD_OUTPUT',
    message: /schema 'plan': \/steps\/0/,
  })
})

t.test('the same reply without a schema is just text', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/structured-not-json.json' })
  const done = await new OpenAiProvider({ baseUrl: url }).complete({ messages })
  t.match(done.text, /^Sure!/)
  t.equal(done.json, undefined)
})
