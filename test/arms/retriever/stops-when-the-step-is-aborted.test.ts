import t from 'tap'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import type { KnowledgeStore } from '../../../src/stores/knowledge-store.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'
import { fakeKnowledge, fakeMemory, hit } from './fakes.js'

t.test('an aborted step is not searched', async (t) => {
  const knowledge = fakeKnowledge([hit('x')])
  const arm = createRetrieverArm({ knowledge, memory: fakeMemory() })
  const ac = new AbortController()
  ac.abort(new Error('cancelled'))
  const { ctx } = armContext({ arm: 'retriever', tool: 'search', signal: ac.signal })
  await t.rejects(arm.execute(executeRequest({ tool: 'search', input: { query: 'x' } }), ctx), { message: 'cancelled' })
  t.same(knowledge.queries, [])
})

t.test('the signal reaches the store, and an abort during the search ends the step', async (t) => {
  const ac = new AbortController()
  let seen: AbortSignal | undefined
  const knowledge: KnowledgeStore = {
    ...fakeKnowledge(),
    async search(_tenant, _query, opts) {
      seen = opts.signal
      ac.abort(new Error('timed out'))
      return [hit('x')]
    },
  }
  const arm = createRetrieverArm({ knowledge, memory: fakeMemory() })
  const { ctx, llm } = armContext({ arm: 'retriever', tool: 'search', signal: ac.signal })
  await t.rejects(arm.execute(executeRequest({ tool: 'search', input: { query: 'x', summarise: true } }), ctx), { message: 'timed out' })
  t.equal(seen, ac.signal)
  t.same(llm.usage, { prompt: 0, completion: 0 }, 'no summary was asked for')
})
