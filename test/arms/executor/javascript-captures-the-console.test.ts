import t from 'tap'

import { call, executor } from './executor-fixture.js'

const arm = executor()
t.teardown(() => arm.close?.())

t.test('console.log and friends are captured, one line per call', async (t) => {
  const out = await call(arm, 'javascript', {
    code: 'console.log("sum", 1 + 2, { a: [1] }); console.error("bad"); console.warn("careful"); 7',
  })
  t.match(out, { result: 7, console: ['sum 3 {"a":[1]}', '[error] bad', '[warn] careful'] })
})

t.test('console output is capped at 64 Ki characters', async (t) => {
  const out = (await call(arm, 'javascript', { code: 'for (let i = 0; i < 20000; i++) console.log("line " + i); "done"' })) as {
    result: unknown
    console: string[]
  }
  t.equal(out.result, 'done')
  const chars = out.console.join('').length
  t.ok(chars <= 64 * 1024 + 1 && chars > 60 * 1024, `kept ${chars} characters`)
  t.ok(out.console.length < 20000)
})
