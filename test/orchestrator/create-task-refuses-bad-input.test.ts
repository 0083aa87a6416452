import t from 'tap'
import { orchestratorUrl, postJson } from '../helpers/servers.js'

const cases: Array<[string, unknown, string]> = [
  ['a missing goal', {}, 'goal'],
  ['an empty goal', { goal: '' }, 'goal'],
  ['a goal of 10,001 characters', { goal: 'g'.repeat(10_001) }, 'goal'],
  ['a goal of the wrong type', { goal: ['a'] }, 'goal'],
  ['an unknown priority', { goal: 'x', priority: 'urgent' }, 'priority'],
  ['constraints of the wrong type', { goal: 'x', constraints: 'fast' }, 'constraints'],
  ['a non-integer max_tokens', { goal: 'x', constraints: { max_tokens: 'many' } }, 'constraints'],
  ['a budget of the wrong shape', { goal: 'x', budget: { max_tokens: -1 } }, 'budget.max_tokens'],
  ['an unknown top-level field', { goal: 'x', colour: 'blue' }, 'colour'],
]

// One server for the validation cases: each PGlite boot costs seconds, and none of them writes.
const shared = orchestratorUrl(t)

for (const [name, body, field] of cases) {
  t.test(`${name} is a 400 naming ${field}`, async (t) => {
    const base = await shared
    const res = await postJson(`${base}/api/v1/tasks`, body, { 'x-request-id': 'bad-task' })
    t.equal(res.status, 400)
    const err = (await res.json()).error
    t.equal(err.code, 'VALIDATION_ERROR')
    t.match(err.details.field, new RegExp(`^${field.replace('.', '\\.')}`))
    t.type(err.details.constraint, 'string')
    t.equal(err.request_id, 'bad-task')
  })
}

t.test('a union field names the field of the branch the client meant', async (t) => {
  const base = await shared
  const cases: Array<[unknown, string, string]> = [
    [{ goal: 'x', constraints: { max_tokens: 'lots' } }, 'constraints.max_tokens', 'must be an integer'],
    [{ goal: 'x', constraints: { allowed_arms: ['wizard'] } }, 'constraints.allowed_arms[0]', 'must be one of'],
    [{ goal: 'x', constraints: ['fast', 3] }, 'constraints[1]', 'must be a string'],
    [{ goal: 'x', constraints: 7 }, 'constraints', 'must be an object or an array'],
    [{ goal: 'x', context: { a: 1 }, constraints: { timeout_seconds: 0 } }, 'constraints.timeout_seconds', 'must be >= 1'],
  ]
  for (const [body, field, constraint] of cases) {
    const res = await postJson(`${base}/api/v1/tasks`, body)
    t.equal(res.status, 400, JSON.stringify(body))
    t.match(
      (await res.json()).error,
      { code: 'VALIDATION_ERROR', details: { field, constraint: new RegExp(`^${constraint}`) } },
      JSON.stringify(body),
    )
  }
})

t.test('exactly 10,000 characters is accepted', async (t) => {
  const base = await shared
  t.equal((await postJson(`${base}/api/v1/tasks`, { goal: 'g'.repeat(10_000) })).status, 201)
})

t.test('malformed JSON and the wrong content type are refused', async (t) => {
  const base = await shared
  const bad = await fetch(`${base}/api/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"goal":' })
  t.equal(bad.status, 400)
  t.equal((await bad.json()).error.details.field, 'body')
  const text = await fetch(`${base}/api/v1/tasks`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'goal' })
  t.equal(text.status, 415)
})

t.test('an unknown task id is a 404 on every route', async (t) => {
  const base = await shared
  for (const [method, path] of [
    ['GET', '/api/v1/tasks/nope'],
    ['GET', '/task/nope'],
    ['DELETE', '/api/v1/tasks/nope'],
    ['POST', '/api/v1/tasks/nope/cancel'],
    ['POST', '/task/nope/cancel'],
    ['GET', '/api/v1/tasks/nope/events'],
  ] as const) {
    const res = await fetch(`${base}${path}`, { method })
    t.equal(res.status, 404, `${method} ${path}`)
    const err = (await res.json()).error
    t.equal(err.code, 'NOT_FOUND')
    t.equal(err.details.field, 'task_id')
  }
})

t.test('task creation is rate limited per address with auth off, whatever user it names', async (t) => {
  const base = await orchestratorUrl(t, { RATE_LIMIT_PER_IP: '2', RATE_LIMIT_PER_USER: '3' })
  t.equal((await postJson(`${base}/api/v1/tasks`, { goal: 'a' })).status, 201)
  t.equal((await postJson(`${base}/api/v1/tasks`, { goal: 'b' })).status, 201)
  const refused = await postJson(`${base}/api/v1/tasks`, { goal: 'c' })
  t.equal(refused.status, 429)
  t.ok(Number(refused.headers.get('retry-after')) >= 1)
  t.equal((await refused.json()).error.code, 'RATE_LIMIT')
  t.equal(
    (await postJson(`${base}/api/v1/tasks`, { goal: 'd' }, { 'x-user-id': 'u1' })).status,
    429,
    'a named user gets no budget of its own',
  )
  t.equal((await fetch(`${base}/api/v1/tasks`)).status, 200, 'reads have their own budget')
})
