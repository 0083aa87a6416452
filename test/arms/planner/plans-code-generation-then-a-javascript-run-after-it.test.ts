// A computation in JavaScript is written by the coder and run by the executor after it; an
// expression to evaluate goes straight to the executor.
import { Detector } from '@ganglion/reflex'
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('"compute … in JavaScript": coder.generate with the goal as spec, then executor.javascript', async (t) => {
  const goal = 'Compute the 20th Fibonacci number in JavaScript'
  const { output } = await plan(goal)
  t.same(outline(output), ['s1 coder.generate', 's2 executor.javascript <- s1', 's3 guardian.scrub <- s2'])
  t.same(output.steps[0]!.input, { language: 'javascript', spec: goal })
  t.same(output.steps[1]!.input, {}, 'the executor runs the code of its dependency')
})

t.test('"write JavaScript code that …" is the same shape', async (t) => {
  const { output } = await plan('Write JavaScript code that sorts 5, 3, 9 in ascending order')
  t.same(outline(output), ['s1 coder.generate', 's2 executor.javascript <- s1', 's3 guardian.scrub <- s2'])
})

t.test('"evaluate `expr`" runs the expression itself', async (t) => {
  const { output } = await plan('evaluate `[1, 2, 3].map((x) => x * 2).join(",")`')
  t.same(outline(output), ['s1 executor.javascript', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { code: '[1, 2, 3].map((x) => x * 2).join(",")' })
})

t.test('"compute" without JavaScript goes to code when the reflex hint says so', async (t) => {
  const { output } = await plan('compute the 20th fibonacci number', { detector: new Detector() })
  t.same(outline(output), ['s1 coder.generate', 's2 executor.javascript <- s1', 's3 guardian.scrub <- s2'])
})
