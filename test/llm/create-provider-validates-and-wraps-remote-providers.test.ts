import t from 'tap'

import { createLlmProvider } from '../../src/llm/create-provider.js'
import { OfflineProvider } from '../../src/llm/offline-provider.js'
import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { RedactingProvider } from '../../src/llm/redacting-provider.js'

const deps = { redact: (text: string) => text }

t.test('each provider with its default model; remote ones behind the redaction layer', async (t) => {
  const offline = createLlmProvider({ provider: 'offline' }, deps)
  t.ok(offline instanceof OfflineProvider)
  const openai = createLlmProvider({ provider: 'openai' }, deps)
  t.ok(openai instanceof RedactingProvider, 'openai without a key is allowed (local servers)')
  t.equal(openai.model, 'gpt-4o-mini')
  t.equal(openai.remote, true)
  t.equal(typeof openai.embed, 'function')
  const anthropic = createLlmProvider({ provider: 'anthropic', apiKey: 'k' }, deps)
  t.ok(anthropic instanceof RedactingProvider)
  t.equal(anthropic.model, 'claude-haiku-4-5')
  t.equal(anthropic.embed, undefined, 'no embeddings endpoint, none offered')
  t.equal(createLlmProvider({ provider: 'openai', model: 'qwen2.5:7b' }, deps).model, 'qwen2.5:7b')
})

t.test('refuses a configuration that cannot work, listing every problem', async (t) => {
  t.throws(() => createLlmProvider({ provider: 'anthropic' }, deps), { code: 'LLM_NOT_CONFIGURED', message: /apiKey.*LLM_API_KEY/ })
  t.throws(() => createLlmProvider({ provider: 'llama' }, deps), { code: 'LLM_NOT_CONFIGURED', message: /modelPath.*LLM_MODEL_PATH/ })
  t.throws(() => createLlmProvider({ provider: 'openai', baseUrl: 'ftp://x', timeoutMs: 0 }, deps), {
    code: 'LLM_NOT_CONFIGURED',
    message: /baseUrl: must be an http\(s\) URL; timeoutMs: must be a positive integer/,
  })
  t.throws(
    () => new OpenAiProvider({ baseUrl: 'localhost:11434' }),
    { code: 'LLM_NOT_CONFIGURED', message: /base URL/ },
    'also when built directly',
  )
  t.throws(() => createLlmProvider({ provider: 'gpt' as 'openai' }, deps), { code: 'LLM_NOT_CONFIGURED', message: /provider/ })
  t.throws(() => createLlmProvider({ provider: 'llama', modelPath: '/nonexistent.gguf', contextSize: -1 }, deps), {
    message: /contextSize/,
  })
  t.throws(() => createLlmProvider({ provider: 'llama', modelPath: '/nonexistent.gguf' }, deps), {
    code: 'LLM_NOT_CONFIGURED',
    message: /not found/,
  })
})
