import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'

import { createLlmProvider } from '../../src/llm/create-provider.js'
import { LlamaProvider } from '../../src/llm/llama-provider.js'

// node-llama-cpp is not a dependency and no model can be downloaded here: these are the two
// failures an operator meets first, for real. The generation path needs both (see docs/llm.md).

t.test('a model path that does not exist fails at construction with LLM_NOT_CONFIGURED', async (t) => {
  t.throws(() => new LlamaProvider({ modelPath: '/nonexistent/model.gguf' }), {
    code: 'LLM_NOT_CONFIGURED',
    message: /model file not found: \/nonexistent\/model\.gguf/,
  })
  const dir = mkdtempSync(join(tmpdir(), 'llama-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  t.throws(() => new LlamaProvider({ modelPath: dir }), { code: 'LLM_NOT_CONFIGURED' }, 'a directory is not a model file')
})

t.test('without node-llama-cpp installed, first use fails with LLM_NOT_CONFIGURED saying how to install it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'llama-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const modelPath = join(dir, 'tiny-model.Q4_K_M.gguf')
  writeFileSync(modelPath, 'GGUF')

  const llm = createLlmProvider({ provider: 'llama', modelPath }, { redact: (s) => s })
  t.equal(llm.provider, 'llama')
  t.equal(llm.model, 'tiny-model.Q4_K_M')
  t.equal(llm.remote, false, 'in-process: not wrapped for redaction')
  await t.rejects(llm.complete({ messages: [{ role: 'user', content: 'hi' }] }), {
    code: 'LLM_NOT_CONFIGURED',
    message: /node-llama-cpp is not installed: npm install node-llama-cpp/,
  })
  await t.rejects(
    (async () => {
      for await (const _ of llm.stream({ messages: [{ role: 'user', content: 'hi' }] }));
    })(),
    { code: 'LLM_NOT_CONFIGURED' },
  )
  const health = await llm.check?.()
  t.equal(health?.ok, false)
  t.match(health?.detail, /npm install node-llama-cpp/)
  await llm.close?.()
})
