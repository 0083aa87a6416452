import t from 'tap'

import { judgeError, verdict } from './judge-fixture.js'

const summary = { s1: { query: 'q', hits: [{ text: 'x'.repeat(500) }], summary: 'Refunds take fourteen days.' } }

t.test('counts the primary result, not every retrieved hit', async (t) => {
  t.ok(await verdict({ deps: summary, input: { checks: [{ type: 'max_length', value: 30 }] } }))
  t.ok(await verdict({ deps: summary, input: { checks: [{ type: 'max_length', value: 4, unit: 'words' }] } }))
})

t.test('fails with the size it found', async (t) => {
  const err = await judgeError({ deps: summary, input: { checks: [{ type: 'max_length', value: 3, unit: 'words' }] } })
  t.match(err.message, /at most 3 words.*s1\.summary has 4 words/)
  const chars = await judgeError({ deps: summary, input: { checks: [{ type: 'max_length', value: 100, path: 's1.hits.0.text' }] } })
  t.match(chars.message, /has 500 characters \(at most 100\)/)
})
