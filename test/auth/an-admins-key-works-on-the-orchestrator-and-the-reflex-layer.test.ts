// With AUTH=required, ADMIN_TOKEN creates a key on the orchestrator, and that one key is a
// credential on both ports: the orchestrator and the reflex layer verify it against the database
// they share (in `ganglion start`, one process and one PGlite).
import t from 'tap'
import { postJson, startServices } from '../helpers/servers.js'
import { ADMIN_TOKEN, AS_ADMIN, bearer } from './api-key-server.js'

t.test("an admin's key works on the orchestrator and the reflex layer", async (t) => {
  const running = await startServices(t, { reflex: true, orchestrator: true }, { AUTH: 'required', ADMIN_TOKEN })
  const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
  const reflex = `http://127.0.0.1:${running.ports.reflex}`

  const res = await postJson(`${orchestrator}/api/v1/api-keys`, { tenant: 'acme', role: 'member', name: 'both ports' }, AS_ADMIN)
  t.equal(res.status, 201)
  const { id, key } = (await res.json()) as { id: string; key: string }
  t.equal(res.headers.get('location'), `/api/v1/api-keys/${id}`)

  const tasks = await fetch(`${orchestrator}/api/v1/tasks`, { headers: bearer(key) })
  t.equal(tasks.status, 200, 'the orchestrator takes it')
  t.match(await tasks.json(), { data: Array, pagination: Object })

  const check = await postJson(`${reflex}/api/v1/check`, { text: 'What is the capital of France?' }, bearer(key))
  t.equal(check.status, 200, 'the reflex layer takes it')
  t.match(await check.json(), { pii_detected: false })

  const cache = await fetch(`${reflex}/api/v1/cache/nothing-here`, { headers: bearer(key) })
  t.equal(cache.status, 404, 'a member may read the cache: past authentication, nothing there')
  await cache.body?.cancel()

  const record = await (await fetch(`${orchestrator}/api/v1/api-keys/${id}`, { headers: AS_ADMIN })).json()
  t.type(record.last_used_at, 'string', 'its use was recorded')
  t.equal((await fetch(`${reflex}/api/v1/stats`, { headers: bearer(key) })).status, 403, 'but a member may not read the stats')
})
