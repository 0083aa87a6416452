import t from 'tap'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import { ARM_TENANT, armContext, executeRequest } from '../arm-context-fixture.js'
import { fakeKnowledge, fakeMemory, hit } from './fakes.js'

t.test('no input.query: the action, else the goal, and the output says which', async (t) => {
  const knowledge = fakeKnowledge([hit('a'), hit('b', { chunk_id: 'd1:1' })])
  const arm = createRetrieverArm({ knowledge, memory: fakeMemory() })
  const { ctx } = armContext({ arm: 'retriever', tool: 'search' })

  const fromAction = (await arm.execute(
    executeRequest({ tool: 'search', action: ' Find the pricing page ', goal: 'Answer a pricing question' }),
    ctx,
  )) as Record<string, any>
  t.equal(fromAction.query, 'Find the pricing page')
  t.equal(fromAction.query_source, 'action')
  t.equal(fromAction.hits.length, 2)

  const fromGoal = (await arm.execute(
    executeRequest({ tool: 'search', goal: 'Answer a pricing question', input: { k: 1 } }),
    ctx,
  )) as Record<string, any>
  t.equal(fromGoal.query_source, 'goal')
  t.equal(fromGoal.hits.length, 1)
  t.same(
    knowledge.queries,
    [
      { tenant: ARM_TENANT, query: 'Find the pricing page', k: 5 },
      { tenant: ARM_TENANT, query: 'Answer a pricing question', k: 1 },
    ],
    "k defaults to 5; the store is searched in the task's tenant",
  )
})
