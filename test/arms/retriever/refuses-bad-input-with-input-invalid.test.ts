import t from 'tap'
import { ArmError } from '../../../src/arms/contract.js'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'
import { fakeKnowledge, fakeMemory } from './fakes.js'

const arm = createRetrieverArm({ knowledge: fakeKnowledge(), memory: fakeMemory() })

const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
  ['k above 50', 'search', { query: 'x', k: 51 }, /input\.k /],
  ['k not an integer', 'search', { query: 'x', k: 1.5 }, /input\.k /],
  ['an empty query', 'search', { query: '' }, /input\.query /],
  ['a query of the wrong type', 'search', { query: 7 }, /input\.query /],
  ['summarise not a boolean', 'search', { query: 'x', summarise: 'yes' }, /input\.summarise /],
  ['an unknown field', 'search', { query: 'x', top: 3 }, /input\.top is not a known field/],
  ['no query, action or goal', 'search', {}, /input\.query is required/],
  ['recall k of 0', 'recall', { goal: 'x', k: 0 }, /input\.k /],
  ['recall without any goal', 'recall', {}, /input\.goal is required/],
]

for (const [name, tool, input, message] of cases) {
  t.test(`${tool}: ${name} is INPUT_INVALID, not retryable`, async (t) => {
    const { ctx } = armContext({ arm: 'retriever', tool })
    const err = await arm.execute(executeRequest({ tool, input }), ctx).then(
      () => undefined,
      (e: unknown) => e,
    )
    t.ok(err instanceof ArmError)
    t.match(err, { code: 'INPUT_INVALID', retryable: false, message })
  })
}

t.test('an unknown tool is TOOL_UNKNOWN', async (t) => {
  const { ctx } = armContext({ arm: 'retriever', tool: 'browse' })
  await t.rejects(arm.execute(executeRequest({ tool: 'browse', input: {} }), ctx), { code: 'TOOL_UNKNOWN', retryable: false })
})
