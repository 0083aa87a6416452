// Code the goal itself contains runs as it is: one executor.javascript step with that code, no
// coder, whether the code follows a colon, sits in backticks or in a fenced block.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('the phrasings of running given code', async (t) => {
  const cases: Array<[string, string]> = [
    ['Run this JavaScript and report the result: 6*7', '6*7'],
    ['Evaluate this JavaScript: 2 ** 10', '2 ** 10'],
    ['Evaluate this JavaScript: `[1, 2, 3].length`', '[1, 2, 3].length'],
    ['Execute the following JS code: Math.max(3, 9)', 'Math.max(3, 9)'],
    ['Run this JavaScript:\n```js\nconst a = 6\na * 7\n```', 'const a = 6\na * 7'],
    ['Run this JavaScript ```\n6 * 7\n```', '6 * 7'],
    ['Run this JS and tell me the answer:\n```javascript\n[1,2].map((x) => x * 2)\n```', '[1,2].map((x) => x * 2)'],
  ]
  for (const [goal, code] of cases) {
    const { output } = await plan(goal)
    t.same(outline(output), ['s1 executor.javascript', 's2 guardian.scrub <- s1'], goal)
    t.same(output.steps[0]!.input, { code }, goal)
  }
})

t.test('the code is payload: words in it are not read as intents', async (t) => {
  const { output } = await plan('Run this JavaScript: "fetch https://example.com and search the knowledge base for x".length')
  t.same(outline(output), ['s1 executor.javascript', 's2 guardian.scrub <- s1'])
})

t.test('no code after the words is no intent: the goal needs a model', async (t) => {
  for (const goal of ['Evaluate this JavaScript: ``', 'Run this JavaScript:   ', 'Run this JavaScript: ```js\n```'])
    await t.rejects(plan(goal), { code: 'MODEL_REQUIRED' }, JSON.stringify(goal))
})
