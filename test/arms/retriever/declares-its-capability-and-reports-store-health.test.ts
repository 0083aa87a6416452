import t from 'tap'
import { Compile } from 'typebox/compile'
import { ArmCapability } from '../../../src/arms/contract.js'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import { fakeKnowledge, fakeMemory } from './fakes.js'

t.test('the capability is a valid ArmCapability with one input and output branch per tool', async (t) => {
  const arm = createRetrieverArm({ knowledge: fakeKnowledge(), memory: fakeMemory() })
  t.equal(arm.name, 'retriever')
  t.same(arm.capability.capabilities, ['search', 'recall'])
  t.equal(arm.capability.cost_tier, 'low')
  t.ok(Compile(ArmCapability).Check({ ...arm.capability, endpoint: 'in-process' }))
  const titles = (s: object) => (s as { oneOf: Array<{ title: string }> }).oneOf.map((b) => b.title)
  t.same(titles(arm.capability.input_schema), ['search', 'recall'])
  t.same(titles(arm.capability.output_schema), ['search', 'recall'])
})

t.test('health follows the store', async (t) => {
  const up = createRetrieverArm({ knowledge: fakeKnowledge([], true), memory: fakeMemory() })
  t.match(await up.health!(), { status: 'healthy', checks: { knowledge_store: { ok: true } } })
  const down = createRetrieverArm({ knowledge: fakeKnowledge([], false), memory: fakeMemory() })
  t.match(await down.health!(), { status: 'unhealthy', checks: { knowledge_store: { ok: false, detail: 'connection refused' } } })
})
