// A model that answers out of shape (twice: an unusable reply is asked again once), plans what
// cannot run, or cannot be reached leaves the task with the heuristic plan (source
// heuristic_fallback), a planner.fallback event and the output's `fallback` saying why.
import t from 'tap'

import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { type Reply, replayServer } from '../../llm/fixtures/replay-server.js'
import { outline, plan } from './planner-fixture.js'

const goal = 'Count the lines of: a\nb\nc'
const cases: Array<[string, Reply, string, RegExp, number]> = [
  [
    'a step that depends on a later one',
    { fixture: '../../arms/planner/fixtures/plan-depends-on-a-later-step.json' },
    'PLAN_INVALID',
    /s2, which is not an earlier step/,
    1,
  ],
  [
    'the input of another tool',
    { fixture: '../../arms/planner/fixtures/plan-input-of-another-tool.json' },
    'PLAN_INVALID',
    /bad input for executor\.shell/,
    1,
  ],
  ['a reply that is not JSON', { fixture: '../../arms/planner/fixtures/plan-not-json.json' }, 'LLM_BAD_OUTPUT', /not JSON/, 2],
  [
    'a reply cut at the token limit',
    { content: '{"steps": [{"step_id": "s1", "arm": "exec', finish: 'length' },
    'LLM_BAD_OUTPUT',
    /cut off/,
    2,
  ],
  ['a server error', { fixture: 'openai/server-error.json', status: 500 }, 'LLM_UNAVAILABLE', /./, 1],
]

for (const [what, reply, code, message, asked] of cases) {
  t.test(`${what}: the heuristic plan, and why`, async (t) => {
    const { url, requests } = await replayServer(t, reply)
    const { output, events } = await plan(goal, { llm: new OpenAiProvider({ baseUrl: url }) })
    t.equal(requests.length, asked, asked === 1 ? 'the model was asked once' : 'an unusable reply was asked again once')
    t.equal(output.source, 'heuristic_fallback')
    t.same(outline(output), ['s1 executor.shell', 's2 guardian.scrub <- s1'])
    t.equal(events.length, 1)
    t.equal(events[0]!.type, 'planner.fallback')
    const data = events[0]!.data as Record<string, unknown>
    t.equal(data.code, code)
    t.match(data.message, message)
    t.same(output.fallback, data, 'the output says why too')
  })
}

t.test('a model that fails on a goal the rule planner reads no work in fails the call with its code', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/server-error.json', status: 500 })
  const llm = new OpenAiProvider({ baseUrl: url })
  await t.rejects(plan('What is the capital of the moon colony?', { llm }), {
    name: 'ArmError',
    code: 'LLM_UNAVAILABLE',
    retryable: true,
    message: /the model could not plan .*recognises no work in the goal/,
  })
})

t.test('a model slower than its timeout: the same, retryable', async (t) => {
  const { url } = await replayServer(t, { content: '{"steps": []}', delayMs: 2000 })
  const llm = new OpenAiProvider({ baseUrl: url, timeoutMs: 200 })
  await t.rejects(plan('What is the capital of the moon colony?', { llm }), { code: 'LLM_UNAVAILABLE', retryable: true })
  const counted = await plan(goal, { llm })
  t.equal(counted.output.source, 'heuristic_fallback', 'a goal the rule planner can do still falls back')
  t.equal(counted.output.fallback?.code, 'LLM_UNAVAILABLE')
})
