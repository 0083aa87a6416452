// LLM_BAD_OUTPUT is retryable: a structured request whose reply is unusable (not JSON, not the
// schema, cut at the token limit) is sent once more, told what was wrong, before the error reaches
// the arm. Both requests are charged; a second bad reply is the error; plain text is never re-sent.
import t from 'tap'

import { BudgetedLlm } from '../../src/llm/budgeted-llm.js'
import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { PLAN_SCHEMA } from './fixtures/plan-schema.js'
import { replayServer } from './fixtures/replay-server.js'

const messages = [{ role: 'user' as const, content: 'Plan: find the incident report.' }]
const schema = { name: 'plan', schema: PLAN_SCHEMA }
const good = JSON.stringify({ steps: [{ id: 's1', arm: 'retriever', action: 'Find it' }] })

const bad: Record<string, { content: string; finish?: 'length' }> = {
  'a reply that is not JSON': { content: 'I would search for the report first.' },
  'JSON off the schema': { content: '{"steps":[{"id":"s1"}]}' },
  'a reply cut at the token limit': { content: good.slice(0, 30), finish: 'length' },
}

for (const [what, reply] of Object.entries(bad)) {
  t.test(`${what} is asked again once, with a correction, and the second reply is used`, async (t) => {
    const { url, requests } = await replayServer(t, [reply, { content: good }])
    const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 10_000)
    const done = await llm.complete({ messages, schema, maxTokens: 500 })
    t.same(done.json, JSON.parse(good))
    t.equal(requests.length, 2)
    const second = requests[1]!.body!.messages as Array<{ role: string; content: string }>
    t.equal(second.length, 2, 'the first request plus one correction')
    t.equal(second[1]!.role, 'user')
    t.match(second[1]!.content, /could not be used .*only the JSON value for 'plan'/)
    t.notOk(second[1]!.content.includes(reply.content), 'the bad reply itself is not sent back')
    t.same(llm.usage, { prompt: 100, completion: 40 }, 'both requests are charged')
  })
}

t.test('a second unusable reply is the error: no third request', async (t) => {
  const { url, requests } = await replayServer(t, { content: 'Sorry, no JSON today.' })
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), null)
  await t.rejects(llm.complete({ messages, schema }), { code: 'LLM_BAD_OUTPUT', message: /not JSON/ })
  t.equal(requests.length, 2)
})

t.test('a request without a schema, or a failure that is not the reply, is not sent again', async (t) => {
  const { url, requests } = await replayServer(t, [{ content: 'plain' }, { fixture: 'openai/bad-request.json', status: 400 }])
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), null)
  t.equal((await llm.complete({ messages })).text, 'plain')
  await t.rejects(llm.complete({ messages, schema }), { code: 'LLM_BAD_REQUEST' })
  t.equal(requests.length, 2, 'one request each')
})

t.test('the correction is held to the budget like any request', async (t) => {
  const { url, requests } = await replayServer(t, { content: 'not JSON' })
  // room for the first request's prompt and cap, not for a second one after it was charged
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 80)
  await t.rejects(llm.complete({ messages, schema, maxTokens: 20 }), { code: 'LLM_BUDGET_EXCEEDED' })
  t.equal(requests.length, 1, 'the model is not asked again past the budget')
})
