import { Detector } from '@ganglion/reflex'
import t from 'tap'

import { createLlmProvider } from '../../src/llm/create-provider.js'
import { replayServer } from './fixtures/replay-server.js'

// the real addon's placeholder redaction, as the application passes it
const detector = new Detector()
const redact = (text: string): string => detector.redact(text).redacted_text

const EMAIL = 'ada.lovelace@example.com'
const CARD = '4111 1111 1111 1111'
const messages = [
  { role: 'system' as const, content: `Escalations go to ${EMAIL}.` },
  { role: 'user' as const, content: `Refund the charge on card ${CARD} and mail ${EMAIL} when done.` },
]

for (const provider of ['openai', 'anthropic'] as const) {
  t.test(`${provider}: no e-mail or card number reaches the server, in complete, stream or embed`, async (t) => {
    const { url, requests } = await replayServer(t, (req) =>
      req.path.endsWith('/embeddings')
        ? { fixture: 'openai/embeddings.json' }
        : req.body?.stream
          ? { fixture: provider === 'openai' ? 'openai/chat-stream.sse' : 'anthropic/message-stream.sse' }
          : { fixture: provider === 'openai' ? 'openai/chat-completion.json' : 'anthropic/message.json' },
    )
    const llm = createLlmProvider({ provider, baseUrl: url, apiKey: 'key' }, { redact })
    t.equal(llm.remote, true)

    await llm.complete({ messages })
    for await (const _ of llm.stream({ messages }));
    if (llm.embed) await llm.embed([`card ${CARD}`, `mail ${EMAIL}`])

    t.equal(requests.length, provider === 'openai' ? 3 : 2)
    for (const sent of requests) {
      t.notMatch(sent.raw, /ada\.lovelace|example\.com/, `${sent.path}: no e-mail`)
      t.notMatch(sent.raw, /4111/, `${sent.path}: no card number`)
    }
    t.match(requests[0]?.raw, /\[EMAIL_1\]/, 'placeholders stand in their place')
    t.match(requests[0]?.raw, /\[CREDIT_CARD_1\]|\[CARD[A-Z_]*_1\]/)
    t.match(requests[0]?.raw, /Refund the charge on card/, 'the rest of the text is intact')
  })
}

t.test('local providers are not wrapped: the offline provider sees the text as it is', async (t) => {
  const llm = createLlmProvider({ provider: 'offline' }, { redact: () => 'REDACTED' })
  t.equal(llm.remote, false)
  const done = await llm.complete({ messages: [{ role: 'user', content: `Mail ${EMAIL} about it.` }] })
  t.match(done.text, EMAIL)
})
