// Independent steps really overlap, and two runner instances together never run more than
// MAX_PARALLEL_ARMS steps of one task at once (the limit is counted in the database).

import type { NewStep } from '../../../src/stores/task-store.js'
import { DelayStepRunner, maxOverlap } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { waitFinal } from '../../fixtures/runner-node.js'

const WIDE: NewStep[] = [
  ...['s1', 's2', 's3', 's4', 's5', 's6'].map((step_id) => ({ step_id, action: 'Work.', arm: 'executor' })),
  { step_id: 's7', action: 'Scrub.', arm: 'guardian', depends_on: ['s1', 's2', 's3', 's4', 's5', 's6'] },
]

onEachDatabase('runs parallel steps within MAX_PARALLEL_ARMS', async (t, db) => {
  const a = new DelayStepRunner({ delayMs: 150 })
  const b = new DelayStepRunner({ delayMs: 150 })
  const planner = async (): Promise<NewStep[]> => WIDE
  const one = await db.node({ steps: a, planner, maxParallelArms: 2 })
  const two = await db.node({ steps: b, planner, maxParallelArms: 2 })

  const tasks = await Promise.all([one.submit(), one.submit(), two.submit()])
  const done = await Promise.all(tasks.map((task) => waitFinal(one.store, task.task_id, 30_000)))
  t.same(
    done.map((d) => d.status),
    ['completed', 'completed', 'completed'],
  )

  const runs = [...a.runs, ...b.runs]
  for (const task of tasks) {
    const mine = runs.filter((r) => r.task_id === task.task_id)
    t.equal(mine.length, 7, 'every step ran once')
    t.equal(maxOverlap(mine), 2, `task ${task.task_id.slice(0, 8)}: steps overlapped, at most 2 at once`)
    const final = done.find((d) => d.task_id === task.task_id)!
    // The stored timestamps agree: at some point two work steps were running together.
    const spans = final.plan.steps.slice(0, 6).map((s) => ({ start: Date.parse(s.started_at!), end: Date.parse(s.completed_at!) }))
    const overlapping = spans.some((x, i) => spans.some((y, j) => i !== j && x.start < y.end && y.start < x.end))
    t.ok(overlapping, 'started_at/completed_at overlap in the database')
  }
  // Which instance wakes first is pg-boss's business (on PGlite one often takes everything).
  t.comment(`steps per instance: ${a.runs.length} + ${b.runs.length}`)
})
