// The whole service with a model that behaves like a local one: a plan in a ```json fence, a plan
// in prose after a reply cut at the token limit, a judged plan, a reply slower than LLM_TIMEOUT,
// and a budget too small for the plan prompt. Each task's goal says which behaviour the model
// stand-in plays for it.
import t, { type Test } from 'tap'
import type { Recorded, Reply } from '../../llm/fixtures/replay-server.js'
import { type ModelService, onEachModelBackend, promptOf, schemaOf } from './model-fixture.js'

// Both backends wait out a model that never answers in time, through the task job's retries
// (about 40 s each): past tap's default limit for a file.
t.setTimeout(400_000)

const MULTIPLY = JSON.stringify({
  steps: [{ step_id: 's1', arm: 'executor', tool: 'javascript', action: 'Multiply.', depends_on: [], input: { code: '6*7' } }],
})
const JUDGED = JSON.stringify({
  steps: [
    { step_id: 's1', arm: 'executor', tool: 'javascript', action: 'Multiply.', depends_on: [], input: { code: '6*7' } },
    { step_id: 's2', arm: 'judge', tool: 'validate', action: 'Check it.', depends_on: ['s1'], input: { criteria: null } },
    { step_id: 's3', arm: 'guardian', tool: 'scrub', action: 'Scrub.', depends_on: ['s2'], input: { text: null } },
  ],
})

/** The goal of a plan request (not the past tasks shown with it). */
const goalOf = (request: Recorded): string => /^Goal: (.*)$/m.exec(promptOf(request))?.[1] ?? ''

function reply(request: Recorded): Reply {
  const schema = schemaOf(request)
  if (schema === 'verdicts')
    return { content: JSON.stringify({ verdicts: [{ criterion: 'the answer is 42', passed: true, reason: '42' }] }) }
  if (schema !== 'plan') return { content: 'A plain answer.' }
  const goal = goalOf(request)
  if (goal.startsWith('Fenced')) return { content: `\`\`\`json\n${MULTIPLY}\n\`\`\`` }
  if (goal.startsWith('Cut')) {
    const again = promptOf(request).includes('could not be used')
    return again ? { content: `Here is the plan:\n${MULTIPLY}\nHope this helps!` } : { content: MULTIPLY.slice(0, 40), finish: 'length' }
  }
  if (goal.startsWith('Judged')) return { content: JUDGED }
  if (goal.toLowerCase().includes('slowly')) return { content: MULTIPLY, delayMs: 3000 }
  return { content: MULTIPLY }
}

async function planned(service: ModelService, taskId: string): Promise<Record<string, any>> {
  return (await service.events(taskId)).find((e) => e.event === 'task.planned')!.data
}

async function behaves(t: Test, service: ModelService): Promise<void> {
  const plans = () => service.requests.filter((r) => schemaOf(r) === 'plan')

  const fenced = await service.run({ goal: 'Fenced: multiply six by seven' })
  t.equal(fenced.status, 'completed', JSON.stringify(fenced.error))
  t.equal(fenced.result.answer, 42, 'the fenced plan ran')
  t.equal((await planned(service, fenced.task_id)).source, 'model', 'a fenced plan is the model plan')

  let before = plans().length
  const cut = await service.run({ goal: 'Cut: multiply six by seven' })
  t.equal(cut.status, 'completed', JSON.stringify(cut.error))
  t.equal(cut.result.answer, 42)
  t.equal((await planned(service, cut.task_id)).source, 'model', 'the second reply, in prose, is the plan')
  const asked = plans()
    .slice(before)
    .filter((r) => goalOf(r).startsWith('Cut'))
  t.ok(asked.length >= 2, 'a reply cut at the token limit is asked again')
  t.match(promptOf(asked[1]!), /could not be used \(reply for schema 'plan' was cut off at the token limit\)/, 'saying what was wrong')

  const judged = await service.run({ goal: 'Judged: multiply six by seven', acceptance_criteria: ['the answer is 42'] })
  t.equal(judged.status, 'completed', JSON.stringify(judged.error))
  t.equal(judged.result.answer, 42, "a judged task answers with the work's output")
  t.match(judged.result.verdict, { passed: true }, 'with the verdict beside it')

  const counted = await service.run({ goal: 'Run `wc -w` on this text: slowly alpha beta gamma' })
  t.equal(counted.status, 'completed', JSON.stringify(counted.error))
  t.equal(String(counted.result.answer).trim(), '4', 'the rule plan answers a goal it can do')
  const fellBack = await planned(service, counted.task_id)
  t.equal(fellBack.source, 'heuristic_fallback')
  t.match(fellBack.fallback, { code: 'LLM_UNAVAILABLE', message: /no complete reply within 1000 ms/ }, 'task.planned says why')
  t.ok(
    (await service.events(counted.task_id)).some((e) => e.event === 'planner.fallback'),
    'and the planner.fallback event',
  )
  const logged = service.warnings.find((w) => w.task_id === counted.task_id && w.step_id === 'plan')
  t.match(logged, { level: 40, arm: 'planner', provider: 'openai/local-model', reason: { code: 'LLM_UNAVAILABLE' } }, 'logged at warn')
  t.notMatch(JSON.stringify(service.warnings), /alpha beta gamma/, 'no prompt text in the log')

  before = plans().length
  const unknown = await service.run({ goal: 'Slowly: what year was the Ruritania lighthouse built?' }, 120_000)
  t.equal(unknown.status, 'failed', 'a timeout is not answered with a knowledge-base miss')
  t.match(unknown.error, { code: 'LLM_UNAVAILABLE', message: /the model could not plan/ })
  t.ok(plans().length - before > 1, 'planning was retried before the task failed')
  t.ok(
    service.warnings.some((w) => w.task_id === unknown.task_id && w.code === 'LLM_UNAVAILABLE' && w.step === 'plan'),
    'each failed planning attempt is logged at warn',
  )

  // Past tasks in a plan prompt: only those alike enough, as goal and outline, never outcome JSON.
  await new Promise((r) => setTimeout(r, 500)) // episodes are written just after a task completes
  before = plans().length
  const again = await service.run({ goal: 'Fenced: multiply six by seven and say so' })
  t.equal(again.status, 'completed', JSON.stringify(again.error))
  const prompt = promptOf(plans().slice(before)[0]!)
  t.match(
    prompt,
    /"Fenced: multiply six by seven" \(similarity 0\.\d\d\): executor\.javascript → guardian\.scrub/,
    'a close past task is shown',
  )
  t.notMatch(prompt, /alpha beta gamma/, 'a past task below the threshold is not')
  t.notMatch(prompt, /Outcome|"scrubbed"|\{"/, 'no outcome JSON')
  t.ok(
    (await planned(service, again.task_id)).similar_tasks.every((s: { score: number }) => s.score >= 0.5),
    'task.planned reports only what was shown',
  )

  before = plans().length
  const broke = await service.run({ goal: 'Fenced: multiply six by seven, again', constraints: { max_tokens: 20 } })
  t.equal(broke.status, 'failed')
  t.match(broke.error, { code: 'LLM_BUDGET_EXCEEDED', retryable: false }, 'a budget failure carries the budget code')
  t.equal(plans().length, before, 'the model was never asked')
}

onEachModelBackend('the model path, as local models write', reply, behaves, { LLM_TIMEOUT: '1' })
