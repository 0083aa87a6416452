// Offline, the coder says plainly what it cannot do: no template fits, a repair, another language.
import t from 'tap'

import { callCoder } from './coder-fixture.js'

t.test('an unknown spec is CODER_NEEDS_MODEL, not retryable', async (t) => {
  await t.rejects(callCoder('generate', { spec: 'parse this CSV and pivot it by region' }), {
    name: 'ArmError',
    code: 'CODER_NEEDS_MODEL',
    retryable: false,
    message: /no model is configured and no built-in template fits: 'parse this CSV and pivot it by region'/,
  })
})

t.test('a template that cannot read its values does not guess', async (t) => {
  await t.rejects(callCoder('generate', { spec: 'the nth Fibonacci number' }), { code: 'CODER_NEEDS_MODEL' })
  await t.rejects(callCoder('generate', { spec: 'sort the list' }), { code: 'CODER_NEEDS_MODEL' })
})

t.test('repair needs a model', async (t) => {
  await t.rejects(callCoder('repair', { code: 'x.toUpper()', error: 'TypeError: not a function' }), { code: 'CODER_NEEDS_MODEL' })
})

t.test('another language is LANGUAGE_UNSUPPORTED offline', async (t) => {
  await t.rejects(callCoder('generate', { language: 'python', spec: 'the 20th Fibonacci number' }), { code: 'LANGUAGE_UNSUPPORTED' })
})
