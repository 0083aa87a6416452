import t from 'tap'

import { judge, SHELL_OK } from './judge-fixture.js'

t.test('offline, a judgement is reported unverified and does not fail the step', async (t) => {
  const out = await judge({ deps: { s1: SHELL_OK }, criteria: ['The explanation is clear to a beginner', 'exit code is 0'] })
  t.equal(out.passed, true)
  t.match(out.checks, [
    { criterion: 'exit code is 0', method: 'deterministic', passed: true },
    { criterion: 'The explanation is clear to a beginner', method: 'unverified', passed: true, detail: /no reasoning model/ },
  ])
})

t.test('criteria default to the task acceptance criteria; input.criteria replaces them', async (t) => {
  const fromTask = await judge({ deps: { s1: SHELL_OK }, criteria: ['contains 6765'] })
  t.match(fromTask.checks, [{ criterion: 'contains 6765' }])
  const own = await judge({ deps: { s1: SHELL_OK }, criteria: ['contains 6765'], input: { criteria: ['exit code is 0'] } })
  t.match(own.checks, [{ criterion: 'exit code is 0' }])
  t.equal(own.checks.length, 1)
})
