import t from 'tap'
import { orchestratorUrl, postJson } from '../helpers/servers.js'

t.test('a replayed Idempotency-Key returns the original task; another body is a 409', async (t) => {
  const base = await orchestratorUrl(t)
  const body = { goal: 'Draft the release notes', priority: 'low' }
  const first = await postJson(`${base}/api/v1/tasks`, body, { 'idempotency-key': 'k-1' })
  t.equal(first.status, 201)
  const original = await first.json()
  const replay = await postJson(`${base}/api/v1/tasks`, { priority: 'low', goal: 'Draft the release notes' }, { 'idempotency-key': 'k-1' })
  t.equal(replay.status, 201)
  t.equal(replay.headers.get('idempotent-replayed'), 'true')
  t.equal((await replay.json()).task_id, original.task_id)

  const conflict = await postJson(`${base}/api/v1/tasks`, { goal: 'Something else' }, { 'idempotency-key': 'k-1' })
  t.equal(conflict.status, 409)
  const err = (await conflict.json()).error
  t.equal(err.code, 'CONFLICT')
  t.equal(err.details.field, 'Idempotency-Key')

  // Keys are scoped per user, and the user is the caller: with AUTH=off the one anonymous principal,
  // whatever X-User-ID says (only a `service` gateway names users: test/security).
  const otherUser = await postJson(`${base}/api/v1/tasks`, { goal: 'Something else' }, { 'idempotency-key': 'k-1', 'x-user-id': 'someone' })
  t.equal(otherUser.status, 409, 'X-User-ID from a caller that is not a gateway names no other scope')
})
