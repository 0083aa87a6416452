// TASK_WORKERS=0: an orchestrator that serves the API and runs nothing. The tasks it accepts stay
// queued until an orchestrator with workers on the same PostgreSQL runs them, and that one's steps
// are the ones that execute. Needs DATABASE_URL; a database of its own (start() uses `public`).
import t from 'tap'
import { DelayStepRunner } from '../fixtures/delay-step-runner.js'
import { heuristicPlanner } from '../fixtures/heuristic-planner.js'
import { testDetector } from '../fixtures/runner-node.js'
import { FINAL, postJson, startServices, waitForTask } from '../helpers/servers.js'
import { freshDatabase } from '../stores/pg-schema.js'

const { DATABASE_URL } = process.env
const planner = heuristicPlanner(testDetector())

t.test(
  'an API-only orchestrator accepts tasks that an orchestrator with workers runs',
  { skip: DATABASE_URL ? false : 'needs DATABASE_URL' },
  async (t) => {
    const databaseUrl = await freshDatabase(t, 'ganglion_apionly')
    const idle = new DelayStepRunner({ delayMs: 10 })
    const api = await startServices(
      t,
      { orchestrator: true },
      { DATABASE_URL: databaseUrl, TASK_WORKERS: '0' },
      { scripted: { steps: idle, planner } },
    )
    const base = `http://127.0.0.1:${api.ports.orchestrator}`
    const task = await (await postJson(`${base}/api/v1/tasks`, { goal: 'Search the archive for the 2019 audit' })).json()
    await new Promise((r) => setTimeout(r, 1500))
    t.equal((await (await fetch(`${base}/api/v1/tasks/${task.task_id}`)).json()).status, 'queued', 'nothing here runs it')

    const steps = new DelayStepRunner({ delayMs: 10 })
    await startServices(t, { orchestrator: true }, { DATABASE_URL: databaseUrl }, { scripted: { steps, planner } })
    const done = await waitForTask(base, task.task_id, (x) => FINAL.includes(x.status), 30_000)
    t.equal(done.status, 'completed', 'the orchestrator with workers ran it')
    t.ok(steps.runs.length > 0 && steps.runs.every((r) => r.task_id === task.task_id), 'its steps ran there')
    t.equal(idle.runs.length, 0, 'and none in the API-only one')
  },
)
