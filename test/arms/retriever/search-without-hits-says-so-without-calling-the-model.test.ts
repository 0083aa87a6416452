import t from 'tap'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'
import { fakeKnowledge, fakeMemory } from './fakes.js'

t.test('search with summarise and no hits answers with a fixed summary and no model call', async (t) => {
  const arm = createRetrieverArm({ knowledge: fakeKnowledge([]), memory: fakeMemory() })
  const { ctx, llm } = armContext({ arm: 'retriever', tool: 'search' })
  const out = await arm.execute(executeRequest({ tool: 'search', input: { query: 'penguin migration', summarise: true } }), ctx)
  t.same(out, {
    query: 'penguin migration',
    query_source: 'input',
    hits: [],
    summary: 'Nothing in the knowledge store matches "penguin migration".',
  })
  t.same(llm.usage, { prompt: 0, completion: 0 })
})

t.test('without summarise there is no summary at all', async (t) => {
  const arm = createRetrieverArm({ knowledge: fakeKnowledge([]), memory: fakeMemory() })
  const { ctx } = armContext({ arm: 'retriever', tool: 'search' })
  t.same(await arm.execute(executeRequest({ tool: 'search', input: { query: 'x' } }), ctx), { query: 'x', query_source: 'input', hits: [] })
})

t.test('a search that must answer a question fails NO_KNOWLEDGE_MATCH without hits, and the model is not called', async (t) => {
  const arm = createRetrieverArm({ knowledge: fakeKnowledge([]), memory: fakeMemory() })
  const { ctx, llm } = armContext({ arm: 'retriever', tool: 'search' })
  await t.rejects(
    arm.execute(executeRequest({ tool: 'search', input: { query: 'penguin migration', summarise: true, require_hits: true } }), ctx),
    {
      code: 'NO_KNOWLEDGE_MATCH',
      retryable: false,
      message: /nothing in the knowledge store matches "penguin migration"/,
    },
  )
  t.same(llm.usage, { prompt: 0, completion: 0 })
})

t.test('require_hits must be a boolean', async (t) => {
  const arm = createRetrieverArm({ knowledge: fakeKnowledge([]), memory: fakeMemory() })
  const { ctx } = armContext({ arm: 'retriever', tool: 'search' })
  await t.rejects(arm.execute(executeRequest({ tool: 'search', input: { query: 'x', require_hits: 'yes' } }), ctx), {
    code: 'INPUT_INVALID',
    message: /input\.require_hits/,
  })
})
