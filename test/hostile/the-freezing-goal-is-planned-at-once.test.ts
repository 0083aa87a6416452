// Goals built to make a backtracking regex run for hours: the planner, the coder's templates and
// the judge's criteria read them in linear time, so the service keeps answering its health check
// while it plans and runs them, and every task reaches a final state.
import t from 'tap'
import { FINAL, orchestratorUrl, postJson, waitForTask } from '../helpers/servers.js'

const GOALS: Record<string, string> = {
  'the freezing goal': `run a${' --b'.repeat(34)}`,
  'options that read two ways, at the limit': `run a${' --b'.repeat(2_400)} on`,
  'a command word inside every option': `run${' --run'.repeat(1_600)}`,
  'a search with no knowledge base to end it': 'search '.repeat(1_400),
  'a computation with no language to end it': 'compute '.repeat(1_200),
  'a sum with no range to end it': 'sum '.repeat(2_400),
  'a white-space run before no colon': `count the words of${'\t'.repeat(9_000)}x`,
  'quotes that never close': '“‘“'.repeat(3_000),
  'a summary request after a long run of joins': `look up x in the knowledge base${' ,and'.repeat(1_800)} summarise`,
}

const CRITERIA = [
  `the final${'\t'.repeat(1_980)}`,
  `exit code${' '.repeat(1_980)}x`,
  `the output contains${' '.repeat(1_900)}\nx`,
  `${'!'.repeat(1_999)}x`,
]

/** Polls /api/v1/health until stopped; returns the slowest answer in milliseconds. */
function watchHealth(base: string): { stop: () => Promise<number> } {
  let running = true
  let slowest = 0
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      const res = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(5_000) })
      await res.arrayBuffer()
      slowest = Math.max(slowest, performance.now() - started)
      await new Promise((r) => setTimeout(r, 50))
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return slowest
    },
  }
}

t.test('health answers within a second while the freezing goal is planned and run', async (t) => {
  const base = await orchestratorUrl(t)
  const health = watchHealth(base)
  const res = await postJson(`${base}/api/v1/tasks`, { goal: GOALS['the freezing goal'], acceptance_criteria: CRITERIA })
  t.equal(res.status, 201)
  const task = await waitForTask(base, (await res.json()).task_id, (x) => FINAL.includes(x.status), 30_000)
  t.ok(FINAL.includes(task.status), task.status)
  const slowest = await health.stop()
  t.ok(slowest < 1_000, `slowest health answer ${Math.round(slowest)} ms`)
})

t.test('every goal built against the old patterns reaches a final state', async (t) => {
  const base = await orchestratorUrl(t)
  const ids: Array<[string, string]> = []
  for (const [name, goal] of Object.entries(GOALS)) {
    t.ok(goal.length <= 10_000, `${name}: within the goal limit`)
    const res = await postJson(`${base}/api/v1/tasks`, { goal, acceptance_criteria: CRITERIA })
    t.equal(res.status, 201, name)
    ids.push([name, (await res.json()).task_id])
  }
  for (const [name, id] of ids) {
    const task = await waitForTask(base, id, (x) => FINAL.includes(x.status), 60_000)
    t.ok(FINAL.includes(task.status), `${name}: ${task.status}`)
  }
})

t.test('a goal of about 1 MB, within the body limit, is refused at once, with health answering', async (t) => {
  const base = await orchestratorUrl(t)
  const health = watchHealth(base)
  const started = performance.now()
  const res = await postJson(`${base}/api/v1/tasks`, { goal: `run a${' --b'.repeat(249_000)}` })
  t.equal(res.status, 400)
  t.match((await res.json()).error, { code: String, message: String, details: { field: 'goal' } })
  t.ok(performance.now() - started < 1_000, 'answered within a second')
  const slowest = await health.stop()
  t.ok(slowest < 1_000, `slowest health answer ${Math.round(slowest)} ms`)
})
