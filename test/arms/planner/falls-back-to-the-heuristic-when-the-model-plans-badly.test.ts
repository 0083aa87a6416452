// A model that answers out of shape, plans what cannot run, or cannot be reached leaves the task
// with the heuristic plan (source heuristic_fallback) and a planner.fallback event saying why.
import t from 'tap'

import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { type Reply, replayServer } from '../../llm/fixtures/replay-server.js'
import { outline, plan } from './planner-fixture.js'

const goal = 'Count the lines of: a\nb\nc'
const cases: Array<[string, Reply, string, RegExp]> = [
  [
    'a step that depends on a later one',
    { fixture: '../../arms/planner/fixtures/plan-depends-on-a-later-step.json' },
    'PLAN_INVALID',
    /s2, which is not an earlier step/,
  ],
  [
    'the input of another tool',
    { fixture: '../../arms/planner/fixtures/plan-input-of-another-tool.json' },
    'PLAN_INVALID',
    /bad input for executor\.shell/,
  ],
  ['a reply that is not JSON', { fixture: '../../arms/planner/fixtures/plan-not-json.json' }, 'LLM_BAD_OUTPUT', /not JSON/],
  ['a server error', { fixture: 'openai/server-error.json', status: 500 }, 'LLM_UNAVAILABLE', /./],
]

for (const [what, reply, code, message] of cases) {
  t.test(`${what}: the heuristic plan, and why`, async (t) => {
    const { url, requests } = await replayServer(t, reply)
    const { output, events } = await plan(goal, { llm: new OpenAiProvider({ baseUrl: url }) })
    t.equal(requests.length, 1, 'the model was asked once')
    t.equal(output.source, 'heuristic_fallback')
    t.same(outline(output), ['s1 executor.shell', 's2 guardian.scrub <- s1'])
    t.equal(events.length, 1)
    t.equal(events[0]!.type, 'planner.fallback')
    const data = events[0]!.data as Record<string, unknown>
    t.equal(data.code, code)
    t.match(data.message, message)
  })
}
