import t from 'tap'
import { requestHash } from '../../src/stores/request-hash.js'

t.test('hashes the same body the same whatever its key order', async (t) => {
  const a = requestHash({ goal: 'x', constraints: { max_tokens: 5, allowed_arms: ['coder'] }, priority: 'high' })
  const b = requestHash({ priority: 'high', constraints: { allowed_arms: ['coder'], max_tokens: 5 }, goal: 'x' })
  t.equal(a, b)
  t.match(a, /^[0-9a-f]{64}$/)
})

t.test('tells different bodies apart, including array order and types', async (t) => {
  const base = requestHash({ goal: 'x', acceptance_criteria: ['a', 'b'] })
  t.not(requestHash({ goal: 'y', acceptance_criteria: ['a', 'b'] }), base)
  t.not(requestHash({ goal: 'x', acceptance_criteria: ['b', 'a'] }), base)
  t.not(requestHash({ goal: 'x', n: 1 }), requestHash({ goal: 'x', n: '1' }))
  t.equal(requestHash({ goal: 'x', skipped: undefined }), requestHash({ goal: 'x' }), 'undefined is absent, as in JSON')
})
