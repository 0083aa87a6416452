// With a reasoning model the code is the model's, asked for by structured output; repair sends the
// code and its error. A model failure falls back to a template when one fits.
import t from 'tap'

import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { callCoder, run } from './coder-fixture.js'

const fixture = (name: string) => `../../arms/coder/fixtures/${name}.json`
type Message = { role: string; content: string }

t.test('generate: the model writes the code, and it runs', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: fixture('code-generated') })
  const spec = 'How many Collatz steps does 27 take to reach 1?'
  const { output } = await callCoder(
    'generate',
    { spec },
    { llm: new OpenAiProvider({ baseUrl: url }), criteria: ['the answer is a number'] },
  )
  t.equal(output.source, 'model')
  t.equal(output.language, 'javascript')
  t.equal(run(output.code), 111)
  const body = requests[0]!.body!
  const format = body.response_format as {
    json_schema: { name: string; strict: boolean; schema: { required: string[]; additionalProperties: boolean } }
  }
  t.equal(format.json_schema.name, 'code')
  t.same(format.json_schema.schema.required, ['language', 'code', 'explanation'])
  t.equal(format.json_schema.schema.additionalProperties, false)
  const [system, user] = body.messages as Message[]
  t.match(system!.content, /QuickJS.*no require or import/s)
  t.match(system!.content, /last expression/)
  t.match(user!.content, spec)
  t.match(user!.content, /the answer is a number/)
})

t.test('repair: the code and the error go to the model', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: fixture('code-repaired') })
  const code = 'const words = "the quick brown fox".split(" ")\nwords.map((w) => w[0].toUpper() + w.slice(1)).join(" ")'
  const { output } = await callCoder(
    'repair',
    { code, error: 'TypeError: not a function', spec: 'Title-case the text' },
    { llm: new OpenAiProvider({ baseUrl: url }) },
  )
  t.equal(output.source, 'model')
  t.equal(run(output.code), 'The Quick Brown Fox')
  const user = (requests[0]!.body!.messages as Message[])[1]!.content
  t.match(user, code)
  t.match(user, 'TypeError: not a function')
  t.match(user, 'Title-case the text')
})

t.test('a model reply that is not JSON: a fitting template answers, with a coder.fallback event', async (t) => {
  const { url } = await replayServer(t, { fixture: fixture('code-not-json') })
  const { output, events } = await callCoder(
    'generate',
    { spec: 'the 20th Fibonacci number' },
    { llm: new OpenAiProvider({ baseUrl: url }) },
  )
  t.equal(output.source, 'template')
  t.equal(run(output.code), 6765)
  t.same(
    events.map((e) => [e.type, (e.data as Record<string, unknown>).code]),
    [['coder.fallback', 'LLM_BAD_OUTPUT']],
  )
})

t.test('an unreachable model and no template: the model error, with its code and retryable', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/server-error.json', status: 500 })
  await t.rejects(callCoder('generate', { spec: 'pivot the CSV by region' }, { llm: new OpenAiProvider({ baseUrl: url }) }), {
    name: 'ArmError',
    code: 'LLM_UNAVAILABLE',
    retryable: true,
  })
})
