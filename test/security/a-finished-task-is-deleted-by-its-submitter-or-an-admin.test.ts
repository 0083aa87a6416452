// DELETE /api/v1/tasks/{id}/record: a finished task is deleted, with its events and idempotency
// key, by the user who submitted it or an admin (204). A task still queued is a 409 that says to
// cancel it first; another tenant's task is the 404 of one that never existed; a viewer, or another
// user of the same tenant, is refused (403); no credential is a 401; an id that is no task id is a
// 400 naming the field. No worker runs here (TASK_WORKERS=0): a task stays queued until cancelled.
import { randomUUID } from 'node:crypto'
import { ADMIN_TOKEN, type Client, nonce, notFound, onEachBackend, submit } from './tenants-fixture.js'

const record = (id: string): string => `/api/v1/tasks/${id}/record`

async function errorOf(res: Response): Promise<{ status: number; code: string; details: Record<string, string>; message: string }> {
  const body = (await res.json()) as { error: { code: string; details: Record<string, string>; message: string } }
  return { status: res.status, code: body.error.code, details: body.error.details, message: body.error.message }
}

/** Submits and cancels a task: cancelled at once, since it is still queued. */
async function finished(client: Client, headers: Record<string, string> = {}): Promise<Record<string, any>> {
  const task = await submit(client, { goal: `Summarise the ${nonce()} report` }, headers)
  const res = await client.post(`/api/v1/tasks/${task.task_id}/cancel`, {})
  const cancelled = (await res.json()) as Record<string, any>
  if (cancelled.status !== 'cancelled') throw new Error(`cancel left it ${cancelled.status}`)
  return cancelled
}

onEachBackend(
  'a finished task is deleted by the user who submitted it, or an admin',
  async (t, service) => {
    const member = service.as('tenant-a-member')
    const key = `key-${nonce()}`
    const queued = await submit(member, { goal: `Summarise the ${nonce()} audit` }, { 'idempotency-key': key })

    const conflict = await errorOf(await member.delete(record(queued.task_id)))
    t.match(conflict, { status: 409, code: 'CONFLICT', details: { field: 'status' }, message: /queued: cancel it first/ })
    t.equal(((await (await member.get(`/api/v1/tasks/${queued.task_id}`)).json()) as { status: string }).status, 'queued', 'untouched')

    await member.post(`/api/v1/tasks/${queued.task_id}/cancel`, {})
    const res = await member.delete(record(queued.task_id))
    t.equal(res.status, 204, 'the submitter deletes the cancelled task')
    t.equal(await res.text(), '', 'with no body')
    t.equal((await member.get(`/api/v1/tasks/${queued.task_id}`)).status, 404, 'the task is gone')
    t.equal((await member.get(`/api/v1/tasks/${queued.task_id}/events`)).status, 404, 'and its event log')
    t.equal((await member.delete(record(queued.task_id))).status, 404, 'a second delete finds nothing')
    const again = await member.post('/api/v1/tasks', { goal: `Summarise the ${nonce()} audit` }, { 'idempotency-key': key })
    t.equal(again.status, 201, 'its idempotency key went with it')
    t.not(again.headers.get('idempotent-replayed'), 'true', 'a new task, not a replay of the deleted one')

    // A gateway acting for the submitter may delete it; acting for anyone else, it may not.
    const gateway = service.as('tenant-a-service')
    const viaGateway = await finished(member)
    const other = await errorOf(await gateway.delete(record(viaGateway.task_id), { 'x-user-id': 'someone-else' }))
    t.match(other, { status: 403, code: 'FORBIDDEN', details: { field: 'task_id' } }, 'another user of the tenant may not')
    t.equal(
      (await gateway.delete(record(viaGateway.task_id), { 'x-user-id': 'test:a:member' })).status,
      204,
      'the submitter, through it, may',
    )

    // An admin may delete any finished task of the tenant it names.
    const byAdmin = await finished(member)
    t.equal((await service.as(ADMIN_TOKEN).delete(record(byAdmin.task_id), { 'x-tenant': 'a' })).status, 204, 'an admin deletes it')
  },
  { env: { TASK_WORKERS: '0' } },
)

onEachBackend(
  'deleting a task refuses every caller but its owner, and every id that is no task id',
  async (t, service) => {
    const member = service.as('tenant-a-member')
    const task = await finished(member)
    const path = record(task.task_id)

    const anonymous = await fetch(`${service.base}${path}`, { method: 'DELETE' })
    t.equal(anonymous.status, 401, 'no credential')
    t.match(await errorOf(await service.as('tenant-a-viewer').delete(path)), { status: 403, code: 'FORBIDDEN' }, 'a viewer')

    const missing = randomUUID()
    const never = await notFound(await service.as('tenant-b-member').delete(record(missing)), missing)
    t.match(never, { status: 404, code: 'NOT_FOUND', details: { field: 'task_id' } })
    t.same(
      await notFound(await service.as('tenant-b-member').delete(path), task.task_id),
      never,
      "another tenant's task: as if it never existed",
    )

    const hostile = [
      'not-a-task',
      'x'.repeat(10_000),
      '%00',
      '..%2F..%2Fetc',
      task.task_id.toUpperCase(),
      `${task.task_id}%20`,
      "1' or '1'='1",
    ]
    for (const id of hostile) {
      const res = await member.delete(record(id))
      t.match(
        await errorOf(res),
        { status: 400, code: 'VALIDATION_ERROR', details: { field: 'task_id', constraint: String } },
        `id ${id.slice(0, 20)}`,
      )
    }
    t.equal((await member.get(`/api/v1/tasks/${task.task_id}`)).status, 200, 'after all of that the task is still there')
    t.equal((await member.delete(path)).status, 204, 'and its submitter deletes it')
  },
  { env: { TASK_WORKERS: '0' } },
)
