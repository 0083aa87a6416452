// A member's X-User-ID names nobody: the user a task is created for is the member itself, so the
// header neither moves its idempotency keys into another user's scope nor is stored as the task's
// user. Before, any caller chose its user by the header: the same key under another X-User-ID made
// a second task, and the task was stored as that user's.
import { onEachBackend, submit } from './tenants-fixture.js'

onEachBackend(
  'X-User-ID from a member is ignored',
  async (t, service) => {
    const member = service.as('tenant-a-member')
    const key = { 'idempotency-key': 'member-key-1' }
    const first = await submit(member, { goal: 'Summarise the first report' }, { ...key, 'x-user-id': 'alice' })

    const otherBody = await member.post('/api/v1/tasks', { goal: 'Something else' }, { ...key, 'x-user-id': 'bob' })
    t.equal(otherBody.status, 409, "another X-User-ID is no other scope: the key is the member's, used with another body")

    const replay = await member.post('/api/v1/tasks', { goal: 'Summarise the first report' }, { ...key, 'x-user-id': 'mallory' })
    t.equal(replay.status, 201)
    t.equal(replay.headers.get('idempotent-replayed'), 'true', "the member's own key, whatever the header says")
    t.equal(((await replay.json()) as { task_id: string }).task_id, first.task_id)

    const sql = await service.inspect()
    const { rows } = await sql.query<{ user_id: string | null }>('select user_id from tasks where task_id = $1', [first.task_id])
    t.equal(rows[0]?.user_id, 'test:a:member', 'stored as the member, not as alice')
  },
  { env: { TASK_WORKERS: '0' }, inspect: true },
)
