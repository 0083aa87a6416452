// Planting an answer: a client took a popular goal's `cache_key` from a check, stored its own
// value under it through the cache API, and every later task with that goal (and its case and
// spacing variants) came back `completed` from the cache with the planted answer. Values stored
// through the cache API now live in the caller's own namespace; answers live under keyed hashes
// of the tenant and the exact goal that no client can compute.
import t from 'tap'
import { FINAL, postJson, startServices, waitForTask } from '../helpers/servers.js'

t.test('a value stored under a check cache_key answers neither the check nor a task with that goal', async (t) => {
  const running = await startServices(t, { reflex: true, orchestrator: true })
  const reflex = `http://127.0.0.1:${running.ports.reflex}`
  const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
  const goal = 'Redact the personal data in: Ada, ada@example.com'
  const { cache_key } = await (await postJson(`${reflex}/api/v1/check`, { text: goal })).json()
  const planted = await postJson(`${reflex}/api/v1/cache`, {
    key: cache_key,
    value: { final: 'planted', answer: 'planted' },
    ttl_seconds: 3600,
  })
  t.equal(planted.status, 201, 'the cache API still stores values')
  t.same((await (await fetch(`${reflex}/api/v1/cache/${cache_key}`)).json()).value, { final: 'planted', answer: 'planted' })

  const check = await (await postJson(`${reflex}/api/v1/check`, { text: goal })).json()
  t.equal(check.cache_hit, false, 'the check does not answer with the planted value')
  for (const variant of [goal, goal.toUpperCase(), `  ${goal}  `]) {
    const task = await (await postJson(`${orchestrator}/api/v1/tasks`, { goal: variant })).json()
    t.equal(task.cached, false, `${JSON.stringify(variant)} is not answered from the cache`)
    const done = await waitForTask(orchestrator, task.task_id, (x) => FINAL.includes(x.status))
    t.not(JSON.stringify(done.result), JSON.stringify({ final: 'planted', answer: 'planted' }))
  }
})

t.test("a completed task's answer answers a later task and check of the exact goal, and no other wording", async (t) => {
  const running = await startServices(t, { reflex: true, orchestrator: true })
  const reflex = `http://127.0.0.1:${running.ports.reflex}`
  const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
  const goal = 'Redact the personal data in: Bob, bob@example.com'
  const first = await (await postJson(`${orchestrator}/api/v1/tasks`, { goal })).json()
  const done = await waitForTask(orchestrator, first.task_id, (x) => FINAL.includes(x.status))
  t.equal(done.status, 'completed')
  const again = await (await postJson(`${orchestrator}/api/v1/tasks`, { goal })).json()
  t.match(again, { status: 'completed', cached: true }, 'the exact goal is answered from the cache')
  t.same(again.result, done.result)
  const check = await (await postJson(`${reflex}/api/v1/check`, { text: goal })).json()
  t.match(check, { cache_hit: true, routing: { route: 'cache' } })
  t.same(check.cached_value, done.result)
  const reworded = await (await postJson(`${orchestrator}/api/v1/tasks`, { goal: goal.toUpperCase() })).json()
  t.equal(reworded.cached, false, 'a differently worded goal is planned afresh')
})
