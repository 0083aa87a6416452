import t from 'tap'

import { estimatePromptTokens, estimateTokens } from '../../src/llm/tokens.js'

t.test('one token per started 4 letters of a word, one per other character, none for spaces', async (t) => {
  t.equal(estimateTokens(''), 0)
  t.equal(estimateTokens('   \n\t'), 0)
  t.equal(estimateTokens('the'), 1)
  t.equal(estimateTokens('incident'), 2)
  t.equal(estimateTokens('Summarise the incident report.'), 9, 'summ·aris·e the inci·dent repo·rt .')
  t.equal(estimateTokens('a@b.co'), 5, 'a @ b . co')
  t.equal(estimateTokens('東京都'), 3, 'each Han character is one')
  t.equal(estimateTokens('ok 👍'), 2)
  t.equal(estimateTokens('x'.repeat(4001)), 1001)
})

t.test('errs high against a BPE count of ordinary English', async (t) => {
  // 'The quick brown fox jumps over the lazy dog.' is 10 tokens in cl100k_base and o200k_base
  t.ok(estimateTokens('The quick brown fox jumps over the lazy dog.') >= 10)
})

t.test('a prompt adds 4 per message and 3 for the reply', async (t) => {
  t.equal(estimatePromptTokens([]), 3)
  t.equal(
    estimatePromptTokens([
      { role: 'system', content: 'the' },
      { role: 'user', content: 'incident' },
    ]),
    3 + 4 + 1 + 4 + 2,
  )
})
