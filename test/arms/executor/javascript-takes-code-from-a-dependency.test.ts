import t from 'tap'

import { call, executor } from './executor-fixture.js'

const arm = executor()
t.teardown(() => arm.close?.())

t.test("without code, the coder step's output is run", async (t) => {
  const out = await call(
    arm,
    'javascript',
    {},
    {
      depOutputs: {
        s0: { rows: 3 },
        s1: { language: 'python', code: 'print(1)' },
        s2: { language: 'javascript', code: '[1, 2, 3].map((x) => x * 2)', explanation: 'doubles' },
      },
    },
  )
  t.match(out, { result: [2, 4, 6] })
})

t.test('explicit code wins over dependencies', async (t) => {
  const out = await call(arm, 'javascript', { code: '"mine"' }, { depOutputs: { s1: { language: 'javascript', code: '"theirs"' } } })
  t.match(out, { result: 'mine' })
})

t.test('no code and no JavaScript dependency is INPUT_INVALID', async (t) => {
  await t.rejects(call(arm, 'javascript', {}, { depOutputs: { s1: { language: 'python', code: 'x' }, s2: 'text' } }), {
    code: 'INPUT_INVALID',
    message: /'code' is required/,
  })
  await t.rejects(call(arm, 'javascript', { code: 5 }), { code: 'INPUT_INVALID', message: /'code' must be a string/ })
})
