// A `service` principal (a trusted gateway) names the user it acts for in X-User-ID: idempotency
// keys are scoped to that user (within the tenant) and the task is stored as that user's. Without
// the header the gateway acts as itself. The same key and user in another tenant is another task.
import { onEachBackend, submit } from './tenants-fixture.js'

onEachBackend(
  'X-User-ID from a service is honoured',
  async (t, service) => {
    const gateway = service.as('tenant-a-service')
    const key = { 'idempotency-key': 'gateway-key-1' }
    const body = { goal: 'Summarise the weekly report' }
    const alice = await submit(gateway, body, { ...key, 'x-user-id': 'alice' })
    const bob = await gateway.post('/api/v1/tasks', body, { ...key, 'x-user-id': 'bob' })
    t.equal(bob.headers.get('idempotent-replayed'), null, "bob's key is his own: a new task")
    const bobs = (await bob.json()) as { task_id: string }
    t.not(bobs.task_id, alice.task_id)
    const again = await gateway.post('/api/v1/tasks', body, { ...key, 'x-user-id': 'alice' })
    t.equal(again.headers.get('idempotent-replayed'), 'true', "alice's key replays alice's task")
    t.equal(((await again.json()) as { task_id: string }).task_id, alice.task_id)
    t.equal(
      (await gateway.post('/api/v1/tasks', { goal: 'Other' }, { ...key, 'x-user-id': 'alice' })).status,
      409,
      "alice's key with another body is a conflict",
    )
    const itself = await submit(gateway, body, key)
    t.not(itself.task_id, alice.task_id, 'without the header the gateway is its own user')
    const otherTenant = await submit(service.as('tenant-b-service'), body, { ...key, 'x-user-id': 'alice' })
    t.not(otherTenant.task_id, alice.task_id, "alice's key in another tenant is another tenant's")
    t.equal(
      (await gateway.post('/api/v1/tasks', body, { ...key, 'x-user-id': 'x'.repeat(257) })).status,
      400,
      'a user id over 256 characters is refused',
    )

    const sql = await service.inspect()
    const { rows } = await sql.query<{ task_id: string; user_id: string | null }>(
      'select task_id, user_id from tasks where task_id = any($1::text[])',
      [[alice.task_id, bobs.task_id, itself.task_id]],
    )
    const userOf = new Map(rows.map((r) => [r.task_id, r.user_id]))
    t.same(
      [userOf.get(alice.task_id), userOf.get(bobs.task_id), userOf.get(itself.task_id)],
      ['alice', 'bob', 'test:a:service'],
      'each task is stored as the user it was made for',
    )
  },
  { env: { TASK_WORKERS: '0' }, inspect: true },
)
