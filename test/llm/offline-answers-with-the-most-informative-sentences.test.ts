import t from 'tap'

import { OfflineProvider } from '../../src/llm/offline-provider.js'
import type { CompletionChunk } from '../../src/llm/provider.js'
import { estimatePromptTokens, estimateTokens } from '../../src/llm/tokens.js'

const REPORT = [
  'The deployment of version 2.4 failed at 02:10.',
  'The weather was fine.',
  'The database migration for the deployment timed out after the lock on the orders table was held by a backup.',
  'Lunch was pizza.',
  'Rolling back the deployment restored the orders table, and the migration will run after the backup window.',
].join(' ')

const request = {
  messages: [
    { role: 'system' as const, content: 'Summarise.' },
    { role: 'user' as const, content: 'ignored: an earlier turn' },
    { role: 'assistant' as const, content: 'ok' },
    { role: 'user' as const, content: REPORT },
  ],
}

t.test('keeps the top sentences of the last user message, in their original order', async (t) => {
  const llm = new OfflineProvider()
  t.equal(llm.provider, 'offline')
  t.equal(llm.model, 'offline-extractive')
  t.equal(llm.reasoning, false)
  t.equal(llm.remote, false)

  const done = await llm.complete(request)
  t.equal(
    done.text,
    'The deployment of version 2.4 failed at 02:10. The database migration for the deployment timed out after the lock on the orders table was held by a backup. Rolling back the deployment restored the orders table, and the migration will run after the backup window.',
  )
  t.notMatch(done.text, /pizza|weather/, 'sentences sharing no terms are dropped')
  t.same(done.usage, { prompt: estimatePromptTokens(request.messages), completion: estimateTokens(done.text) }, 'usage is the estimate')
  t.equal(done.finishReason, 'stop')
  t.equal(done.model, 'offline-extractive')
  t.same(await llm.complete(request), done, 'deterministic')
})

t.test('stays within maxTokens, dropping sentences or cutting the one left', async (t) => {
  const llm = new OfflineProvider()
  const short = await llm.complete({ ...request, maxTokens: 30 })
  t.ok(short.usage.completion <= 30, `${short.usage.completion} ≤ 30`)
  t.equal(short.finishReason, 'length')
  t.match(short.text, /migration/)
  const tiny = await llm.complete({ ...request, maxTokens: 3 })
  t.ok(tiny.usage.completion <= 3 && tiny.text.length > 0, `"${tiny.text}" fits 3 tokens`)
  t.equal(tiny.finishReason, 'length')
})

t.test('streams the same text in a few deltas, then done', async (t) => {
  const llm = new OfflineProvider()
  const chunks: CompletionChunk[] = []
  for await (const chunk of llm.stream(request)) chunks.push(chunk)
  const deltas = chunks.flatMap((c) => (c.type === 'delta' ? [c.text] : []))
  t.ok(deltas.length >= 2 && deltas.length <= 5, `${deltas.length} deltas`)
  const last = chunks.at(-1)
  t.equal(last?.type, 'done')
  if (last?.type === 'done') t.equal(deltas.join(''), last.completion.text)
})

t.test('no user message gives an empty answer; bad requests and aborts are refused', async (t) => {
  const llm = new OfflineProvider()
  t.equal((await llm.complete({ messages: [{ role: 'system', content: 'Be brief.' }] })).text, '')
  await t.rejects(llm.complete({ messages: [] }), { code: 'LLM_BAD_REQUEST' })
  await t.rejects(llm.complete(request, AbortSignal.abort()), { code: 'LLM_ABORTED' })
})
