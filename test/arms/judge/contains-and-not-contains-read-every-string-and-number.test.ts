import t from 'tap'

import { JS_RESULT, judge, judgeError, verdict } from './judge-fixture.js'

const hits = {
  s1: { query: 'refunds', hits: [{ title: 'Policy', text: 'A refund is paid within 14 days.' }], summary: 'Refunds take 14 days.' },
}

t.test('contains finds text in a nested string or a number', async (t) => {
  const out = await judge({ deps: hits, input: { checks: [{ type: 'contains', value: 'within 14 days' }] } })
  t.match(out.checks[0], { passed: true, detail: 'found at s1.hits.0.text' })
  t.ok(await verdict({ deps: { s2: JS_RESULT }, input: { checks: [{ type: 'contains', value: 6765 }] } }))
})

t.test('contains is case-sensitive unless ignore_case', async (t) => {
  t.notOk(await verdict({ deps: hits, input: { checks: [{ type: 'contains', value: 'POLICY' }] } }))
  t.ok(await verdict({ deps: hits, input: { checks: [{ type: 'contains', value: 'POLICY', ignore_case: true }] } }))
})

t.test('not_contains fails where the text appears, and names the place', async (t) => {
  t.ok(await verdict({ deps: hits, input: { checks: [{ type: 'not_contains', value: 'lawsuit' }] } }))
  const err = await judgeError({ deps: hits, input: { checks: [{ type: 'not_contains', value: 'refund', path: 's1.hits' }] } })
  t.match(err.message, /does not contain "refund" at s1\.hits.*found at s1\.hits\.0\.text/)
})
