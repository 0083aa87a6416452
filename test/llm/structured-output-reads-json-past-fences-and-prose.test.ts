// Local models wrap structured output in code fences and prose even when asked for JSON only. The
// client reads the first balanced JSON value out of such a reply and still checks it against the
// schema; a reply with no whole JSON value in it stays LLM_BAD_OUTPUT, and one cut at the token
// limit says so.
import t from 'tap'

import { jsonInText, MAX_CANDIDATES } from '../../src/llm/json-in-text.js'
import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { PLAN_SCHEMA } from './fixtures/plan-schema.js'
import { replayServer } from './fixtures/replay-server.js'

const messages = [{ role: 'user' as const, content: 'Plan: find the incident report.' }]
const schema = { name: 'plan', schema: PLAN_SCHEMA }
const plan = { steps: [{ id: 's1', arm: 'retriever', action: 'Find the {incident} report, "quoted" [1]' }] }
const json = JSON.stringify(plan, null, 2)

const wrapped: Record<string, string> = {
  'a ```json fence': `\`\`\`json\n${json}\n\`\`\``,
  'a bare ``` fence': `\`\`\`\n${json}\n\`\`\``,
  'prose around it': `Here is the plan: ${json} Hope this helps!`,
  'prose with brackets before it': `Sure [as asked], here it is {see below}:\n\`\`\`json\n${json}\n\`\`\`\nAnything else?`,
}

for (const [how, content] of Object.entries(wrapped)) {
  t.test(`a plan in ${how} is read and checked`, async (t) => {
    const { url } = await replayServer(t, { content })
    const done = await new OpenAiProvider({ baseUrl: url }).complete({ messages, schema })
    t.same(done.json, plan)
  })
}

t.test('the value found is still checked against the schema', async (t) => {
  const { url } = await replayServer(t, { content: 'Here you go: ```json\n{"steps":[{"id":"s1"}]}\n```' })
  await t.rejects(new OpenAiProvider({ baseUrl: url }).complete({ messages, schema }), {
    code: 'LLM_BAD_OUTPUT',
    message: /does not match schema 'plan'/,
  })
})

t.test('a reply cut at the token limit is LLM_BAD_OUTPUT saying it was cut', async (t) => {
  const { url } = await replayServer(t, { content: json.slice(0, 40), finish: 'length' })
  await t.rejects(new OpenAiProvider({ baseUrl: url }).complete({ messages, schema }), {
    code: 'LLM_BAD_OUTPUT',
    retryable: true,
    message: /cut off at the token limit/,
  })
})

t.test('the scan: strings are skipped, unbalanced text gives nothing, the work is bounded', async (t) => {
  t.same(jsonInText('x {"a": "}{"} y'), { found: true, value: { a: '}{' } })
  t.same(jsonInText('x {"a": "\\"}"} y'), { found: true, value: { a: '"}' } })
  t.same(jsonInText('{"steps": ['), { found: false })
  t.same(jsonInText('no json here'), { found: false })
  const brackets = `${'{'.repeat(MAX_CANDIDATES)} ${'x'.repeat(10)} {"late": true}`
  t.same(jsonInText(brackets), { found: false }, `at most ${MAX_CANDIDATES} openings are tried`)
  // Hostile: a megabyte of openings answers at once (linear, no backtracking).
  const began = performance.now()
  t.same(jsonInText(`${'[{'.repeat(500_000)}`), { found: false })
  t.ok(performance.now() - began < 2000, 'a megabyte of brackets is scanned quickly')
})
