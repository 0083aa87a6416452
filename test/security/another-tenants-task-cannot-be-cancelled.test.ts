// DELETE /api/v1/tasks/{id} and POST …/cancel on another tenant's task are the 404 of a task that
// does not exist, and leave the task alone. Before tenants any caller cancelled any task.
import { randomUUID } from 'node:crypto'
import { nonce, notFound, onEachBackend, submit } from './tenants-fixture.js'

onEachBackend(
  "another tenant's task cannot be cancelled",
  async (t, service) => {
    const a = service.as('tenant-a-member')
    const b = service.as('tenant-b-member')
    // A task that waits in the queue: no worker takes it (TASK_WORKERS=0), so a cancel would end it at once.
    const task = await submit(a, { goal: `Summarise the ${nonce()} report of tenant a` })
    const before = await (await a.get(`/api/v1/tasks/${task.task_id}`)).json()

    const missing = randomUUID()
    const never = await notFound(await b.delete(`/api/v1/tasks/${missing}`), missing)
    t.match(never, { status: 404, code: 'NOT_FOUND', details: { field: 'task_id' } })
    for (const cancel of [
      () => b.delete(`/api/v1/tasks/${task.task_id}`),
      () => b.post(`/api/v1/tasks/${task.task_id}/cancel`, {}),
      () => b.post(`/task/${task.task_id}/cancel`, {}),
    ]) {
      t.same(await notFound(await cancel(), task.task_id), never, 'exactly what an id that never existed answers')
    }
    const after = (await (await a.get(`/api/v1/tasks/${task.task_id}`)).json()) as { status: string }
    t.same(after, before, 'the task was not touched: still queued, not even updated')

    const own = await a.delete(`/api/v1/tasks/${task.task_id}`)
    t.equal(((await own.json()) as { status: string }).status, 'cancelled', 'its own tenant cancels it')
    const events = await (await a.get(`/api/v1/tasks/${task.task_id}/events`)).text()
    t.equal(events.match(/"status":"cancelled"/g)?.length, 1, 'once: the log has no cancel but its own')
  },
  { env: { TASK_WORKERS: '0' } },
)
