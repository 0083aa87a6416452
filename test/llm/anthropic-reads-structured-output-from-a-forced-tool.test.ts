import t from 'tap'

import { AnthropicProvider } from '../../src/llm/anthropic-provider.js'
import { PLAN_SCHEMA } from './fixtures/plan-schema.js'
import { replayServer } from './fixtures/replay-server.js'

const messages = [{ role: 'user' as const, content: 'Plan: find the incident report.' }]

t.test('sends the schema as the one tool, forced by tool_choice, and returns its input', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'anthropic/tool-use-message.json' })
  const done = await new AnthropicProvider({ baseUrl: url, apiKey: 'k' }).complete({
    messages,
    schema: { name: 'plan', schema: PLAN_SCHEMA },
  })
  const tools = requests[0]?.body?.tools as Array<Record<string, unknown>>
  t.equal(tools.length, 1)
  t.equal(tools[0]?.name, 'plan')
  t.same(tools[0]?.input_schema, PLAN_SCHEMA)
  t.same(requests[0]?.body?.tool_choice, { type: 'tool', name: 'plan' })
  t.same(done.json, { steps: [{ id: 's1', arm: 'retriever', action: 'Find the incident report' }] })
  t.same(JSON.parse(done.text), done.json, 'text is the same JSON')
  t.same(done.usage, { prompt: 512, completion: 38 }, 'prompt includes cache reads')
  t.equal(done.finishReason, 'stop')
})

t.test('streams the tool input as deltas and parses the whole at the end', async (t) => {
  const { url } = await replayServer(t, { fixture: 'anthropic/tool-use-stream.sse' })
  const deltas: string[] = []
  let json: unknown
  for await (const c of new AnthropicProvider({ baseUrl: url, apiKey: 'k' }).stream({
    messages,
    schema: { name: 'plan', schema: PLAN_SCHEMA },
  })) {
    if (c.type === 'delta') deltas.push(c.text)
    else json = c.completion.json
  }
  t.equal(deltas.length, 2, 'the empty partial_json is skipped')
  t.same(json, { steps: [{ id: 's1', arm: 'retriever', action: 'Find the incident report' }] })
})

t.test('a reply without the tool call, or off the schema, is LLM_BAD_OUTPUT', async (t) => {
  const text = await replayServer(t, { fixture: 'anthropic/message.json' })
  await t.rejects(
    new AnthropicProvider({ baseUrl: text.url, apiKey: 'k' }).complete({ messages, schema: { name: 'plan', schema: PLAN_SCHEMA } }),
    {
      code: 'LLM_BAD_OUTPUT',
      message: /did not call the 'plan' tool/,
      usage: { prompt: 27, completion: 14 },
    },
  )
  const strict = { ...PLAN_SCHEMA, properties: { steps: { type: 'array', minItems: 2 } } }
  const tool = await replayServer(t, { fixture: 'anthropic/tool-use-message.json' })
  await t.rejects(
    new AnthropicProvider({ baseUrl: tool.url, apiKey: 'k' }).complete({ messages, schema: { name: 'plan', schema: strict } }),
    {
      code: 'LLM_BAD_OUTPUT',
      message: /\/steps/,
    },
  )
})
