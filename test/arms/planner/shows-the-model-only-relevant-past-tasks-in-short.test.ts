// Past tasks enter the plan prompt only when they are at least PLAN_MEMORY_MIN_SIMILARITY alike
// (default 0.5), at most three, each as its goal (cut short) and its plan's outline: never the
// outcome JSON, so a prompt stays about the size of the goal and the tool table.
import t, { type Test } from 'tap'

import type { EpisodicMemory, SimilarTask } from '../../../src/arms/memory.js'
import { PAST_GOAL_CHARS } from '../../../src/arms/planner/model-plan.js'
import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { type PlanOptions, plan } from './planner-fixture.js'

const OUTCOME = JSON.stringify({ scrubbed: { s1: { hits: [{ text: 'x'.repeat(400), score: 0.7 }], summary: 'a long summary' } } })
const episode = (task_id: string, goal: string, score: number): SimilarTask => ({
  task_id,
  goal,
  score,
  outcome: OUTCOME,
  completed_at: '2026-01-01T00:00:00Z',
  steps: [
    { arm: 'retriever', tool: 'search', action: 'Search the knowledge base for the deploy notes and their authors.' },
    { arm: 'guardian', tool: 'scrub', action: 'Scrub.' },
  ],
})
const memory = (episodes: SimilarTask[]): EpisodicMemory => ({ remember: async () => {}, similar: async () => episodes })
const past = [
  episode('t_close', 'Why did the January deploy fail?', 0.82),
  episode('t_far', 'Count the words of the minutes', 0.31),
  episode('t_none', 'Redact the personal data in the invoice', 0.01),
]
const goal = 'Why did the March deploy fail?'
const planReply = { fixture: '../../arms/planner/fixtures/plan-valid.json' }

async function userPrompt(t: Test, opts: PlanOptions) {
  const { url, requests } = await replayServer(t, planReply)
  const planned = await plan(goal, { llm: new OpenAiProvider({ baseUrl: url }), ...opts })
  const messages = requests[0]!.body!.messages as Array<{ role: string; content: string }>
  return { planned, user: messages.find((m) => m.role === 'user')!.content }
}

t.test('below the default threshold a past task is neither shown nor reported', async (t) => {
  const { planned, user } = await userPrompt(t, { memory: memory(past) })
  t.match(user, /"Why did the January deploy fail\?" \(similarity 0\.82\): retriever\.search → guardian\.scrub/)
  t.notMatch(user, /Count the words|invoice/, 'nothing below 0.5 reaches the prompt')
  t.same(
    planned.output.similar_tasks.map((s) => s.task_id),
    ['t_close'],
    'the task.planned hints are the ones shown',
  )
})

t.test('no outcome JSON and no step actions: the outline only', async (t) => {
  const { user } = await userPrompt(t, { memory: memory(past) })
  t.notMatch(user, /Outcome|scrubbed|summary|x{20}/, 'no outcome')
  t.notMatch(user, /deploy notes and their authors/, 'no past action text')
})

t.test('the threshold is a setting', async (t) => {
  const { user } = await userPrompt(t, { memory: memory(past), minSimilarity: 0 })
  t.match(user, /Count the words of the minutes/)
  t.match(user, /invoice/)
  const strict = await userPrompt(t, { memory: memory(past), minSimilarity: 0.9 })
  t.notMatch(strict.user, /Similar past tasks/, 'none at all above 0.9')
})

t.test('the prompt stays bounded whatever the past goals and plans were', async (t) => {
  const huge = Array.from({ length: 3 }, (_, i) => ({
    ...episode(`t_${i}`, `Why did the deploy fail ${'very '.repeat(2000)}badly?`, 0.9),
    steps: Array.from({ length: 50 }, () => ({ arm: 'executor', tool: 'shell', action: 'y'.repeat(1000) })),
  }))
  const bare = await userPrompt(t, {})
  const { user } = await userPrompt(t, { memory: memory(huge) })
  const added = user.length - bare.user.length
  t.ok(added < 3 * (PAST_GOAL_CHARS + 12 * 20 + 60), `three past tasks add ${added} characters`)
})
