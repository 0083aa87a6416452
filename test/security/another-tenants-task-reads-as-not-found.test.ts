// GET /api/v1/tasks/{id} (and /task/{id}) of another tenant's task is the 404 of a task that does
// not exist: the same error object, so the answer does not even say the id is taken. Before
// tenants any caller read any task, goal, plan and result included, by its id.
import { randomUUID } from 'node:crypto'
import { nonce, notFound, onEachBackend, submit } from './tenants-fixture.js'

onEachBackend("another tenant's task reads as not found", async (t, service) => {
  const a = service.as('tenant-a-member')
  const b = service.as('tenant-b-member')
  const task = await submit(a, { goal: `Redact the personal data in: the ${nonce()} contract of tenant a` })
  t.equal((await a.get(`/api/v1/tasks/${task.task_id}`)).status, 200, 'its own tenant reads it')

  const missing = randomUUID()
  const never = await notFound(await b.get(`/api/v1/tasks/${missing}`), missing)
  t.match(never, { status: 404, code: 'NOT_FOUND', details: { field: 'task_id' }, has_request_id: true })
  for (const path of [`/api/v1/tasks/${task.task_id}`, `/task/${task.task_id}`]) {
    const res = await b.get(path)
    t.same(await notFound(res, task.task_id), never, `${path}: exactly what an id that never existed answers`)
  }
  t.same(
    await notFound(await service.as('tenant-b-viewer').get(`/api/v1/tasks/${task.task_id}`), task.task_id),
    never,
    'for every role of the other tenant',
  )
})
