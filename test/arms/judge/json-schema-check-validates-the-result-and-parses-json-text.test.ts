import t from 'tap'

import { judge, judgeError, verdict } from './judge-fixture.js'

const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
  required: ['name', 'count'],
}

t.test('passes an object result that matches, at a path or as the primary result', async (t) => {
  const deps = { s1: { result: { name: 'fib', count: 20 }, console: [], duration_ms: 1 } }
  t.ok(await verdict({ deps, input: { checks: [{ type: 'json_schema', schema, path: 's1.result' }] } }))
  const out = await judge({ deps, input: { checks: [{ type: 'json_schema', schema }] } })
  t.match(out.checks[0], { criterion: 'matches the JSON schema', method: 'deterministic', passed: true })
})

t.test('parses JSON text before validating it (stdout of a command that prints JSON)', async (t) => {
  const deps = { s1: { exit_code: 0, stdout: '{"name":"fib","count":20}\n', stderr: '', truncated: false, duration_ms: 4 } }
  t.ok(await verdict({ deps, input: { checks: [{ type: 'json_schema', schema }] } }))
})

t.test('fails a result that does not match, saying where', async (t) => {
  const deps = { s1: { result: { name: 'fib', count: -1 }, console: [], duration_ms: 1 } }
  const err = await judgeError({ deps, input: { checks: [{ type: 'json_schema', schema, path: 's1.result' }] } })
  t.equal(err.code, 'VALIDATION_FAILED')
  t.match(err.message, /matches the JSON schema at s1\.result.*\/count/)
})

t.test('fails when the path is not there', async (t) => {
  const err = await judgeError({
    deps: { s1: { result: 1 } },
    input: { checks: [{ type: 'json_schema', schema: {}, path: 's1.output.x' }] },
  })
  t.match(err.message, /no value at s1\.output/)
})
