import t from 'tap'

import { AnthropicProvider } from '../../src/llm/anthropic-provider.js'
import { replayServer } from './fixtures/replay-server.js'

const request = { messages: [{ role: 'user' as const, content: 'hi' }] }

const cases = [
  {
    fixture: 'anthropic/rate-limited.json',
    status: 429,
    code: 'LLM_UNAVAILABLE',
    retryable: true,
    message: /HTTP 429: Number of request tokens/,
  },
  {
    fixture: 'anthropic/server-error.json',
    status: 500,
    code: 'LLM_UNAVAILABLE',
    retryable: true,
    message: /HTTP 500: Internal server error/,
  },
  { fixture: 'anthropic/overloaded.json', status: 529, code: 'LLM_UNAVAILABLE', retryable: true, message: /HTTP 529: Overloaded/ },
  {
    fixture: 'anthropic/bad-request.json',
    status: 400,
    code: 'LLM_BAD_REQUEST',
    retryable: false,
    message: /HTTP 400: messages: roles must alternate/,
  },
  {
    fixture: 'anthropic/unauthorized.json',
    status: 401,
    code: 'LLM_BAD_REQUEST',
    retryable: false,
    message: /HTTP 401: invalid x-api-key/,
  },
]

for (const c of cases) {
  t.test(`${c.status} is ${c.code}${c.retryable ? ', retryable' : ''}`, async (t) => {
    const { url } = await replayServer(t, { fixture: c.fixture, status: c.status })
    await t.rejects(new AnthropicProvider({ baseUrl: url, apiKey: 'k' }).complete(request), {
      code: c.code,
      retryable: c.retryable,
      message: c.message,
    })
  })
}

t.test('check() asks /v1/models with the key; a failure is reported, not thrown', async (t) => {
  const { url, requests } = await replayServer(t, [
    { fixture: 'anthropic/models.json' },
    { fixture: 'anthropic/unauthorized.json', status: 401 },
  ])
  const llm = new AnthropicProvider({ baseUrl: url, apiKey: 'sk-ant' })
  t.same(await llm.check(), { ok: true })
  t.equal(requests[0]?.path, '/v1/models')
  t.equal(requests[0]?.headers['x-api-key'], 'sk-ant')
  const down = await llm.check()
  t.equal(down.ok, false)
  t.match(down.detail, /401/)
})
