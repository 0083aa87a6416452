// DELETE /api/v1/tenants/{tenant}: an admin erases one tenant's tasks (with their events),
// knowledge, API keys and webhook subscriptions, and is told how many of each went; other tenants keep everything. Refused
// while the tenant has a task queued (409), to anyone but an admin (403), without a credential
// (401), and for a name that is no one tenant (400). No worker runs (TASK_WORKERS=0): tasks stay
// queued until cancelled.
import { ADMIN_TOKEN, type Client, nonce, onEachBackend, submit } from './tenants-fixture.js'

async function errorOf(res: Response): Promise<{ status: number; code: string; details: Record<string, string>; message: string }> {
  const body = (await res.json()) as { error: { code: string; details: Record<string, string>; message: string } }
  return { status: res.status, code: body.error.code, details: body.error.details, message: body.error.message }
}

/** Asks until the answer has `want` status or `ms` passed; the last status. */
async function statusWithin(ms: number, ask: () => Promise<Response>, want: number): Promise<number> {
  const until = Date.now() + ms
  for (;;) {
    const { status } = await ask()
    if (status === want || Date.now() > until) return status
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function subscribe(client: Client): Promise<string> {
  const res = await client.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['task.completed'] })
  if (res.status !== 201) throw new Error(`subscribe answered ${res.status}`)
  return ((await res.json()) as { id: string }).id
}

async function ingest(client: Client, text: string): Promise<string> {
  const res = await client.post('/api/v1/knowledge', { documents: [{ title: 'Notes', text }] })
  if (res.status !== 201) throw new Error(`ingest answered ${res.status}`)
  return ((await res.json()) as { documents: Array<{ document_id: string }> }).documents[0]!.document_id
}

onEachBackend(
  "an admin erases a tenant's tasks, knowledge and keys, and no other tenant's",
  async (t, service) => {
    const admin = service.as(ADMIN_TOKEN)
    const gone = service.as('tenant-gone-member')
    const kept = service.as('tenant-kept-member')

    const tasks = [
      await submit(gone, { goal: `Summarise the ${nonce()} report` }),
      await submit(gone, { goal: `List the ${nonce()} files` }),
    ]
    await ingest(gone, `The ${nonce()} runbook. Restart the worker after a deploy.`)
    const keptTask = await submit(kept, { goal: `Summarise the ${nonce()} report` })
    const keptDoc = await ingest(kept, `The ${nonce()} handbook of the kept tenant.`)
    await subscribe(gone)
    const keptHook = await subscribe(kept)
    const created = await admin.post('/api/v1/api-keys', { tenant: 'gone', role: 'member', name: `k-${nonce()}` })
    const { key } = (await created.json()) as { key: string }
    const keptKey = (await (await admin.post('/api/v1/api-keys', { tenant: 'kept', role: 'member', name: `k-${nonce()}` })).json()) as {
      key: string
    }
    t.equal((await service.as(key).get('/api/v1/tasks')).status, 200, "the tenant's key works before")

    const busy = await errorOf(await admin.delete('/api/v1/tenants/gone'))
    t.match(busy, {
      status: 409,
      code: 'CONFLICT',
      details: { field: 'tenant' },
      message: /2 task\(s\) still queued or running: cancel them first/,
    })
    t.equal((await gone.get(`/api/v1/tasks/${tasks[0]!.task_id}`)).status, 200, 'nothing was erased')

    for (const task of tasks) await gone.post(`/api/v1/tasks/${task.task_id}/cancel`, {})
    const res = await admin.delete('/api/v1/tenants/gone')
    t.equal(res.status, 200)
    const body = (await res.json()) as { tenant: string; erased: Record<string, number> }
    t.equal(body.tenant, 'gone')
    t.match(body.erased, { tasks: 2, knowledge_documents: 1, episodes: 0, api_keys: 1, webhook_subscriptions: 1 })
    t.ok(body.erased.knowledge_chunks! >= 1, 'and the chunks of the document')

    for (const task of tasks) {
      t.equal((await gone.get(`/api/v1/tasks/${task.task_id}`)).status, 404, 'the task is gone')
      t.equal((await gone.get(`/api/v1/tasks/${task.task_id}/events`)).status, 404, 'and its events')
    }
    const docs = (await (await gone.get('/api/v1/knowledge')).json()) as { data: unknown[] }
    t.same(docs.data, [], 'no knowledge is left')
    const hooks = (await (await gone.get('/api/v1/webhooks')).json()) as { data: unknown[] }
    t.same(hooks.data, [], 'no webhook subscription is left')
    // A verified credential is trusted for about a second (src/auth/authenticator.ts), as after a revocation.
    t.equal(await statusWithin(3000, () => service.as(key).get('/api/v1/tasks'), 401), 401, "the tenant's API key no longer authenticates")

    t.equal((await kept.get(`/api/v1/tasks/${keptTask.task_id}`)).status, 200, "another tenant's task stays")
    t.equal((await kept.get(`/api/v1/knowledge/${keptDoc}`)).status, 200, "another tenant's document stays")
    t.equal((await kept.get(`/api/v1/webhooks/${keptHook}`)).status, 200, "another tenant's subscription stays")
    t.equal((await service.as(keptKey.key).get('/api/v1/tasks')).status, 200, "another tenant's key still works")

    const twice = (await (await admin.delete('/api/v1/tenants/gone')).json()) as { erased: Record<string, number> }
    t.same(
      twice.erased,
      { tasks: 0, knowledge_documents: 0, knowledge_chunks: 0, episodes: 0, api_keys: 0, webhook_subscriptions: 0 },
      'erasing again finds nothing',
    )
  },
  { env: { TASK_WORKERS: '0', WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8' } },
)

onEachBackend(
  'erasing a tenant is refused to every caller but an admin, and for every name that is no one tenant',
  async (t, service) => {
    const member = service.as('tenant-a-member')
    const task = await submit(member, { goal: `Summarise the ${nonce()} report` })
    await member.post(`/api/v1/tasks/${task.task_id}/cancel`, {})

    t.equal((await fetch(`${service.base}/api/v1/tenants/a`, { method: 'DELETE' })).status, 401, 'no credential')
    for (const who of ['tenant-a-member', 'tenant-a-viewer', 'tenant-a-service']) {
      t.match(
        await errorOf(await service.as(who).delete('/api/v1/tenants/a')),
        { status: 403, code: 'FORBIDDEN' },
        `${who}: its own tenant`,
      )
      t.match(
        await errorOf(await service.as(who).delete('/api/v1/tenants/b')),
        { status: 403, code: 'FORBIDDEN' },
        `${who}: another tenant`,
      )
    }
    const admin = service.as(ADMIN_TOKEN)
    for (const name of ['*', '%2A', '%00', '%01a', 'x'.repeat(300), '%7F']) {
      const res = await admin.delete(`/api/v1/tenants/${name}`)
      t.match(
        await errorOf(res),
        { status: 400, code: 'VALIDATION_ERROR', details: { field: 'tenant', constraint: String } },
        `name ${name.slice(0, 12)}`,
      )
    }
    t.equal((await member.get(`/api/v1/tasks/${task.task_id}`)).status, 200, 'after all of that the task is still there')
  },
  { env: { TASK_WORKERS: '0' } },
)
