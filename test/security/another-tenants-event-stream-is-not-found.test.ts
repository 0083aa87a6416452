// GET /api/v1/tasks/{id}/events of another tenant's task is the 404 of a task that does not exist,
// before anything is streamed. Before tenants any caller streamed any task's event log.
import { randomUUID } from 'node:crypto'
import { nonce, notFound, onEachBackend, submit, waitFinal } from './tenants-fixture.js'

onEachBackend("another tenant's event stream is not found", async (t, service) => {
  const a = service.as('tenant-a-member')
  const b = service.as('tenant-b-member')
  const task = await submit(a, { goal: `Redact the personal data in: the ${nonce()} diary of tenant a` })
  await waitFinal(a, task.task_id)
  const own = await a.get(`/api/v1/tasks/${task.task_id}/events`)
  t.equal(own.status, 200, 'its own tenant streams it')
  t.match(await own.text(), /event: task\.created/)

  const missing = randomUUID()
  const never = await notFound(await b.get(`/api/v1/tasks/${missing}/events`), missing)
  t.match(never, { status: 404, code: 'NOT_FOUND', details: { field: 'task_id' } })
  const res = await b.get(`/api/v1/tasks/${task.task_id}/events`, { 'last-event-id': '0' })
  t.notMatch(res.headers.get('content-type') ?? '', /event-stream/, 'no stream was started')
  t.same(await notFound(res, task.task_id), never, 'exactly what an id that never existed answers')
})
