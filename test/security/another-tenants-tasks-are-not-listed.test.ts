// GET /api/v1/tasks lists the caller's tenant's tasks only, with a total that counts them alone.
// Before tenants it listed every task of the service, with its goal and result, whoever asked.
import { nonce, onEachBackend, submit } from './tenants-fixture.js'

onEachBackend("another tenant's tasks are not listed", async (t, service) => {
  const a = service.as('tenant-a-member')
  const b = service.as('tenant-b-member')
  const word = nonce()
  const ours = await submit(a, { goal: `Redact the personal data in: the ${word} minutes of tenant a` })
  const theirs = await submit(b, { goal: `Redact the personal data in: the ${word} minutes of tenant b` })

  const listed = async (token: string) => {
    const res = await service.as(token).get('/api/v1/tasks?page_size=100')
    t.equal(res.status, 200)
    return (await res.json()) as { data: Array<{ task_id: string; goal: string }>; pagination: { total_items: number } }
  }
  const seenByB = await listed('tenant-b-member')
  t.same(
    seenByB.data.map((x) => x.task_id),
    [theirs.task_id],
    "b's list holds its own task only",
  )
  t.equal(seenByB.pagination.total_items, 1, 'and its total counts nothing of a')
  t.notMatch(JSON.stringify(seenByB), /tenant a/, "no goal of a's in b's list")
  t.same(
    (await listed('tenant-a-member')).data.map((x) => x.task_id),
    [ours.task_id],
  )
  t.same((await listed('tenant-c-viewer')).data, [], 'a tenant without tasks lists none')
})
