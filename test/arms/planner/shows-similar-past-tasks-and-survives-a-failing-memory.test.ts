// The episodic memory's similar tasks appear in the output (for the task.planned event); a memory
// that fails leaves the planner without examples, not without a plan.
import t from 'tap'

import type { EpisodicMemory, SimilarTask } from '../../../src/arms/memory.js'
import { ARM_TENANT } from '../arm-context-fixture.js'
import { plan } from './planner-fixture.js'

const past: SimilarTask = {
  task_id: 't_past',
  goal: 'Count the lines of a log',
  score: 0.91,
  outcome: 'completed: 12',
  completed_at: '2026-01-01T00:00:00Z',
  steps: [{ arm: 'executor', tool: 'shell', action: 'Run wc -l' }],
}

t.test("similar tasks are asked for in the task's tenant with k 3 and reported", async (t) => {
  const asked: Array<[string, string, number]> = []
  const memory: EpisodicMemory = {
    remember: async () => {},
    similar: async (tenant, goal, k) => {
      asked.push([tenant, goal, k])
      return [past]
    },
  }
  const { output } = await plan('Count the lines of: a\nb', { memory })
  t.same(asked, [[ARM_TENANT, 'Count the lines of: a\nb', 3]], 'the tenant of the capability token')
  t.same(output.similar_tasks, [{ task_id: 't_past', goal: 'Count the lines of a log', score: 0.91 }])
})

t.test('a memory that throws: no similar tasks, same plan', async (t) => {
  const memory: EpisodicMemory = {
    remember: async () => {},
    similar: async () => {
      throw new Error('database is down')
    },
  }
  const { output } = await plan('Count the lines of: a\nb', { memory })
  t.same(output.similar_tasks, [])
  t.equal(output.steps.length, 2)
})
