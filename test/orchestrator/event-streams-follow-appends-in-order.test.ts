// An event stream sends what was appended to its task's log, in order, as it is appended: woken by
// the process's one listener (LISTEN/NOTIFY on PostgreSQL, PGlite's own listen), not by a poll of
// its own. The safety poll is set to a minute here, so what arrives came by notice; the last test
// turns notices off and finds the poll still delivers. The refusals come before any stream starts.
import { onEachDatabase } from '../fixtures/each-database.js'
import { MEMBER, notices, type Sse, sleep, streamRig, TENANT } from './event-streams-fixture.js'

const ids = (events: Sse[]) => events.map((e) => e.id)
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

onEachDatabase('event streams follow appends in order', async (t, db) => {
  const rig = await streamRig(t, db, { safetyPollMs: 60_000 })
  const { store } = rig.node

  await t.test('a stream opened first gets each append, in order, and ends with the task', async (t) => {
    const task = await rig.idleTask()
    const stream = await rig.open(task.task_id)
    t.equal(stream.res.status, 200)
    await stream.received(1)
    for (let n = 1; n <= 5; n++) await store.appendEvent(TENANT, task.task_id, { type: 'step.progress', data: { n } })
    const events = await stream.received(6)
    t.same(ids(events), range(1, 6))
    t.same(
      events.slice(1).map((e) => e.data.n),
      [1, 2, 3, 4, 5],
    )
    await store.transition(TENANT, task.task_id, ['queued'], 'cancelled')
    await stream.ended
    t.same(ids(stream.events), range(1, 7), 'the final move is sent, then the stream ends')
    t.match(stream.events.at(-1), { event: 'task.status', data: { status: 'cancelled' } })
  })

  await t.test('a stream opened later replays the log, then follows it; Last-Event-ID skips what was seen', async (t) => {
    const task = await rig.idleTask()
    for (let n = 1; n <= 3; n++) await store.appendEvent(TENANT, task.task_id, { type: 'step.progress', data: { n } })
    const whole = await rig.open(task.task_id)
    t.same(ids(await whole.received(4)), range(1, 4))
    const resumed = await rig.open(task.task_id, { lastEventId: 3 })
    t.same(ids(await resumed.received(1)), [4])
    await store.appendEvent(TENANT, task.task_id, { type: 'step.progress', data: { n: 4 } })
    await store.appendEvent(TENANT, task.task_id, { type: 'step.progress', data: { n: 5 } })
    t.same(ids(await whole.received(6)), range(1, 6))
    t.same(ids(await resumed.received(3)), [4, 5, 6])
    whole.close()
    resumed.close()
  })

  await t.test('refusals start no stream and leave no follower', async (t) => {
    const task = await rig.idleTask()
    const ours = `/api/v1/tasks/${task.task_id}/events`

    const anonymous = await fetch(`${rig.url}${ours}`)
    t.equal(anonymous.status, 401)
    t.match(await anonymous.json(), { error: { code: 'UNAUTHORIZED', message: String } })

    const roleless = await rig.open(task.task_id, { token: `${TENANT}:` })
    t.equal(roleless.res.status, 403, 'a principal without a role that reads tasks')
    t.match(await roleless.res.json(), { error: { code: 'FORBIDDEN' } })

    const theirs = await rig.open(task.task_id, { token: 'globex:member' })
    t.equal(theirs.res.status, 404, "another tenant's task is not found")
    t.notMatch(theirs.res.headers.get('content-type') ?? '', /event-stream/)
    t.match(await theirs.res.json(), { error: { code: 'NOT_FOUND', details: { field: 'task_id' } } })

    const bad = await fetch(`${rig.url}${ours}`, { headers: { authorization: `Bearer ${MEMBER}`, 'last-event-id': '1e3' } })
    t.equal(bad.status, 400)
    t.match(await bad.json(), {
      error: { code: 'VALIDATION_ERROR', details: { field: 'Last-Event-ID', constraint: 'must be a non-negative integer event id' } },
    })
    const tooLong = await fetch(`${rig.url}${ours}?last_event_id=${'9'.repeat(5000)}`, { headers: { authorization: `Bearer ${MEMBER}` } })
    t.equal(tooLong.status, 400)
    t.equal(rig.feed.following, 0, 'no refused request left a follower behind')
  })

  await t.test('notices of another schema, of events already read, or malformed, wake nothing', async (t) => {
    const task = await rig.idleTask()
    const stream = await rig.open(task.task_id)
    await stream.received(1)
    const schema = rig.node.sql.schema
    const id = task.task_id
    const before = rig.routeQueries()
    for (const payload of [
      `other_schema ${id} 99`,
      `${schema} ${id} 1`,
      `${schema} ${id}`,
      `${schema} ${id} many`,
      `${schema}  99`,
      `${schema}${id} 99`,
      '',
    ]) {
      await rig.node.sql.query('select pg_notify($1, $2)', ['ganglion_task_events', payload])
    }
    await sleep(300)
    t.equal(rig.routeQueries() - before, 0, 'no read')
    await rig.node.sql.query('select pg_notify($1, $2)', ['ganglion_task_events', `${schema} ${id} 2`])
    for (let i = 0; i < 200 && rig.routeQueries() === before; i++) await sleep(25)
    t.ok(rig.routeQueries() > before, 'a notice past what the stream read wakes it')
    t.same(ids(stream.events), [1], 'and it sends only what the log holds')
    stream.close()
  })

  await t.test('a closed stream stops following', async (t) => {
    const task = await rig.idleTask()
    const stream = await rig.open(task.task_id)
    await stream.received(1)
    t.equal(rig.feed.following, 1)
    stream.close()
    // The handler notices the disconnect at once: its wait ends on the request's abort signal.
    for (let i = 0; i < 200 && rig.feed.following > 0; i++) await sleep(25)
    t.equal(rig.feed.following, 0)
  })

  await t.test('with notices lost, the safety poll still delivers', async (t) => {
    const polled = await streamRig(t, db, { safetyPollMs: 300 })
    const task = await polled.idleTask()
    const stream = await polled.open(task.task_id)
    await stream.received(1)
    await notices(polled.node, false)
    t.teardown(() => notices(polled.node, true))
    await polled.node.store.appendEvent(TENANT, task.task_id, { type: 'step.progress', data: { n: 1 } })
    await polled.node.store.transition(TENANT, task.task_id, ['queued'], 'cancelled')
    await stream.ended
    t.same(ids(stream.events), range(1, 3))
    t.ok(polled.feedQueries() > 0, 'the poll ran')

    const ahead = await polled.idleTask()
    const beyond = await polled.open(ahead.task_id, { lastEventId: 1000 })
    t.equal(beyond.res.status, 200)
    await notices(polled.node, true)
    await polled.node.store.transition(TENANT, ahead.task_id, ['queued'], 'cancelled')
    await beyond.ended
    t.same(beyond.events, [], 'a stream resumed past the log sends nothing and ends with its task')
  })
})
