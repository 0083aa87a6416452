import t from 'tap'
import { FINAL, orchestratorUrl, postJson, waitForTask } from '../helpers/servers.js'

interface Sse {
  id: number
  event: string
  data: Record<string, unknown>
}

function parse(text: string): Sse[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? ''
      return { id: Number(field('id')), event: field('event'), data: JSON.parse(field('data')) }
    })
}

t.test('the event stream replays the stored log and resumes after Last-Event-ID', async (t) => {
  const base = await orchestratorUrl(t)
  const task = await (await postJson(`${base}/api/v1/tasks`, { goal: 'Count the words of: check the spelling of the README' })).json()
  await waitForTask(base, task.task_id, (x) => FINAL.includes(x.status))

  const res = await fetch(`${base}/api/v1/tasks/${task.task_id}/events`)
  t.equal(res.status, 200)
  t.match(res.headers.get('content-type'), /^text\/event-stream/)
  t.ok(res.headers.get('x-request-id'))
  const events = parse(await res.text())
  t.ok(events.length >= 4)
  t.same(
    events.map((e) => e.id),
    events.map((_, i) => i + 1),
    'ids are 1, 2, 3…',
  )
  t.equal(events[0]?.event, 'task.created')
  t.ok(events.some((e) => e.event === 'step.started'))
  t.ok(events.some((e) => e.event === 'step.completed'))
  t.equal(events.at(-1)?.event, 'task.status')
  t.equal(events.at(-1)?.data.status, 'completed')

  const resumed = parse(await (await fetch(`${base}/api/v1/tasks/${task.task_id}/events`, { headers: { 'last-event-id': '2' } })).text())
  t.same(
    resumed.map((e) => e.id),
    events.slice(2).map((e) => e.id),
  )
  const byQuery = parse(await (await fetch(`${base}/api/v1/tasks/${task.task_id}/events?last_event_id=3`)).text())
  t.equal(byQuery[0]?.id, 4)
})

t.test('a bad Last-Event-ID is a 400', async (t) => {
  const base = await orchestratorUrl(t)
  const task = await (await postJson(`${base}/api/v1/tasks`, { goal: 'x' })).json()
  const res = await fetch(`${base}/api/v1/tasks/${task.task_id}/events`, { headers: { 'last-event-id': 'abc' } })
  t.equal(res.status, 400)
  t.equal((await res.json()).error.details.field, 'Last-Event-ID')
})
