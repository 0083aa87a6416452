import t from 'tap'
import { ArmError } from '../../../src/arms/contract.js'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'
import { fakeKnowledge, fakeMemory, hit } from './fakes.js'

t.test("a summary over the step's token budget fails with LLM_BUDGET_EXCEEDED, not retryable", async (t) => {
  const arm = createRetrieverArm({ knowledge: fakeKnowledge([hit('A long passage about tides. '.repeat(20))]), memory: fakeMemory() })
  const { ctx } = armContext({ arm: 'retriever', tool: 'search', maxTokens: 5 })
  const err = await arm.execute(executeRequest({ tool: 'search', input: { query: 'tides', summarise: true } }), ctx).then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(err instanceof ArmError)
  t.match(err, { code: 'LLM_BUDGET_EXCEEDED', retryable: false })
})
