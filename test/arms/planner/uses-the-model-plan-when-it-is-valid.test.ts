// With a reasoning model the plan is the model's: asked for by strict structured output (the
// schema generated from the tool table), checked in code, nulls for "absent" dropped.
import t from 'tap'

import type { EpisodicMemory } from '../../../src/arms/memory.js'
import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { outline, plan } from './planner-fixture.js'

const fixture = (name: string) => `../../arms/planner/fixtures/${name}.json`
const memory: EpisodicMemory = {
  remember: async () => {},
  similar: async () => [
    {
      task_id: 't_old',
      goal: 'Why did the January deploy fail?',
      score: 0.82,
      outcome: 'completed: a missing migration',
      completed_at: '2026-02-01T00:00:00Z',
      steps: [{ arm: 'retriever', tool: 'search', action: 'Find the deploy post-mortem' }],
    },
  ],
}

t.test('a valid plan is used as the model wrote it, with source model', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: fixture('plan-valid') })
  const goal = 'What caused the March outage? Summarise the incident report.'
  const { output, stored } = await plan(goal, { llm: new OpenAiProvider({ baseUrl: url }), memory, acceptance_criteria: ['names a cause'] })
  t.equal(output.source, 'model')
  t.same(outline(output), ['s1 retriever.search', 's2 retriever.recall', 's3 judge.validate <- s1,s2', 's4 guardian.scrub <- s3'])
  t.same(output.steps[0]!.input, { query: 'March outage incident report', k: 5, summarise: true })
  t.same(output.steps[1]!.input, {}, 'nulls are absent fields')
  t.equal(stored.length, 4)
  t.same(output.similar_tasks, [{ task_id: 't_old', goal: 'Why did the January deploy fail?', score: 0.82 }])

  const body = requests[0]!.body!
  const format = body.response_format as {
    type: string
    json_schema: { name: string; strict: boolean; schema: { properties: Record<string, unknown> } }
  }
  t.equal(format.type, 'json_schema')
  t.equal(format.json_schema.strict, true)
  t.equal(format.json_schema.name, 'plan')
  const [system, user] = body.messages as Array<{ role: string; content: string }>
  t.match(system!.content, /- executor\.shell input \{ command: string, args\?: string\[\], stdin\?: string \}/)
  t.notMatch(system!.content, /planner\.plan/, 'a plan does not plan again')
  t.match(user!.content, /Goal: What caused the March outage/)
  t.match(user!.content, /names a cause/)
  t.match(user!.content, /"Why did the January deploy fail\?" \(similarity 0\.82\): retriever\.search/)
})

t.test('strict mode: every object lists all its properties as required and allows no others', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: fixture('plan-valid') })
  await plan('What caused the March outage?', {
    llm: new OpenAiProvider({ baseUrl: url }),
    constraints: { allowed_arms: ['retriever', 'judge'] },
  })
  const schema = (requests[0]!.body!.response_format as { json_schema: { schema: unknown } }).json_schema.schema
  const objects: Array<Record<string, unknown>> = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk)
      return
    }
    if (node === null || typeof node !== 'object') return
    const o = node as Record<string, unknown>
    if (o.type === 'object') objects.push(o)
    Object.values(o).forEach(walk)
  }
  walk(schema)
  t.ok(objects.length > 3)
  for (const o of objects) {
    t.equal(o.additionalProperties, false)
    t.same([...(o.required as string[])].sort(), Object.keys(o.properties as object).sort())
  }
  const arm = (schema as { properties: { steps: { items: { properties: { arm: { enum: string[] } } } } } }).properties.steps.items
    .properties.arm
  t.same(arm.enum, ['retriever', 'judge', 'guardian'], 'only the allowed arms, and the guardian')
})

t.test('a plan without a final scrub gets one', async (t) => {
  const { url } = await replayServer(t, { fixture: fixture('plan-without-scrub') })
  const { output } = await plan('Is the status page green?', { llm: new OpenAiProvider({ baseUrl: url }) })
  t.equal(output.source, 'model')
  t.same(outline(output), ['s1 executor.http_fetch', 's2 guardian.scrub <- s1'])
})
