import t from 'tap'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import { openSql } from '../../../src/stores/open-sql.js'
import { SqlEpisodicMemory } from '../../../src/stores/sql-episodic-memory.js'
import { SqlKnowledgeStore } from '../../../src/stores/sql-knowledge-store.js'
import { ARM_TENANT, armContext, executeRequest } from '../arm-context-fixture.js'

t.test("recall finds the completed task with the closest goal first; goal defaults to the task's", async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const knowledge = await SqlKnowledgeStore.open(sql)
  const memory = new SqlEpisodicMemory(sql, knowledge.embedder)
  const arm = createRetrieverArm({ knowledge, memory })
  const completed_at = new Date().toISOString()
  // Another tenant's past task with the very goal asked: never recalled for this task.
  await memory.remember('tenant-2', {
    task_id: 'theirs',
    goal: 'Summarise the sales report for the last quarter',
    steps: [],
    outcome: 'completed',
    completed_at,
  })
  await memory.remember(ARM_TENANT, {
    task_id: 'old-1',
    goal: 'Summarise the quarterly sales report',
    steps: [{ arm: 'retriever', tool: 'search', action: 'Find the report' }],
    outcome: 'completed',
    completed_at,
  })
  await memory.remember(ARM_TENANT, {
    task_id: 'old-2',
    goal: 'Count the lines of a CSV file',
    steps: [],
    outcome: 'completed',
    completed_at,
  })

  const { ctx } = armContext({ arm: 'retriever', tool: 'recall' })
  const out = (await arm.execute(
    executeRequest({ tool: 'recall', goal: 'Summarise the sales report for the last quarter', input: { k: 2 } }),
    ctx,
  )) as Record<string, any>
  t.equal(out.goal, 'Summarise the sales report for the last quarter')
  t.equal(out.similar[0].task_id, 'old-1')
  t.notOk(
    out.similar.some((s: { task_id: string }) => s.task_id === 'theirs'),
    "another tenant's past task is not recalled",
  )
  t.same(out.similar[0].steps, [{ arm: 'retriever', tool: 'search', action: 'Find the report' }])
  t.ok(out.similar[0].score > 0.3 && out.similar[0].score <= 1)
  t.ok(out.similar.every((s: { score: number }, i: number) => i === 0 || s.score <= out.similar[i - 1].score))

  const explicit = (await arm.execute(
    executeRequest({ tool: 'recall', goal: 'anything', input: { goal: 'count lines in the csv', k: 1 } }),
    ctx,
  )) as Record<string, any>
  t.same(
    explicit.similar.map((s: { task_id: string }) => s.task_id),
    ['old-2'],
  )
})
