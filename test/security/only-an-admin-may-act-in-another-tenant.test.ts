// X-Tenant: an admin names the tenant it acts in (`*` for every tenant, to read and change what
// exists); without it an admin acts in its own tenant like everyone else. Anyone else naming
// another tenant is refused with 403, never quietly served from its own. Before tenants the header
// meant nothing and every caller saw every tenant's tasks.
import { ADMIN_TOKEN, nonce, onEachBackend, submit } from './tenants-fixture.js'

onEachBackend(
  'only an admin may act in another tenant',
  async (t, service) => {
    const a = service.as('tenant-a-member')
    const b = service.as('tenant-b-member')
    const admin = service.as(ADMIN_TOKEN)
    const word = nonce()
    const ofA = await submit(a, { goal: `Summarise the ${word} report of a` })

    const refused = await a.post('/api/v1/tasks', { goal: 'into b' }, { 'x-tenant': 'b' })
    t.equal(refused.status, 403)
    t.match(await refused.json(), { error: { code: 'FORBIDDEN', details: { field: 'X-Tenant' } } })
    t.equal((await a.get('/api/v1/tasks', { 'x-tenant': 'b' })).status, 403, 'to list')
    t.equal((await a.get(`/api/v1/tasks/${ofA.task_id}`, { 'x-tenant': '*' })).status, 403, 'or to read across tenants')
    t.equal((await a.get(`/api/v1/tasks/${ofA.task_id}`, { 'x-tenant': 'a' })).status, 200, 'its own tenant named is fine')

    const made = await submit(admin, { goal: `Summarise the ${word} report made for b` }, { 'x-tenant': 'b' })
    t.equal((await b.get(`/api/v1/tasks/${made.task_id}`)).status, 200, 'an admin creates in the tenant it names')
    t.equal((await a.get(`/api/v1/tasks/${made.task_id}`)).status, 404)

    const ids = async (headers: Record<string, string>) =>
      ((await (await admin.get('/api/v1/tasks?page_size=100', headers)).json()) as { data: Array<{ task_id: string }> }).data.map(
        (x) => x.task_id,
      )
    t.same(await ids({}), [], 'without X-Tenant an admin sees its own tenant (default), which has none')
    t.same(await ids({ 'x-tenant': 'a' }), [ofA.task_id])
    t.same((await ids({ 'x-tenant': '*' })).sort(), [ofA.task_id, made.task_id].sort(), 'X-Tenant: * is every tenant')
    t.equal((await admin.get(`/api/v1/tasks/${ofA.task_id}`)).status, 404, "a's task is not the admin's own tenant's")
    const cancelled = await admin.delete(`/api/v1/tasks/${ofA.task_id}`, { 'x-tenant': '*' })
    t.equal(((await cancelled.json()) as { status: string }).status, 'cancelled', 'an admin may change any tenant’s task when it says so')

    const star = await admin.post('/api/v1/tasks', { goal: 'nowhere' }, { 'x-tenant': '*' })
    t.equal(star.status, 400, 'a task is created in one tenant, not *')
    t.match(await star.json(), { error: { code: 'VALIDATION_ERROR', details: { field: 'X-Tenant' } } })
    const bad = await admin.get('/api/v1/tasks', { 'x-tenant': 't'.repeat(257) })
    t.equal(bad.status, 400, 'a tenant name longer than any credential may carry is refused')
  },
  { env: { TASK_WORKERS: '0' } },
)
