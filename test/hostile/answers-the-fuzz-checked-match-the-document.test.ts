// Answers the schema-driven fuzz (test/fuzz/run.sh) found breaking openapi.yaml, where the service
// was right and the document wrong: `/docs/openapi.yaml` is a YAML document, not a string; each
// event of a task's stream is `id`, `event` and `data`, not a string; and `X-User-ID` from anyone
// but a `service` principal is not read, so its length is not checked. Each request is the one the
// fuzz sent; each answer is held to the document as it now reads.
import { readFileSync } from 'node:fs'
import YAML from 'yaml'
import { FINAL, postJson, waitForTask } from '../helpers/servers.js'
import { onEachBackend } from './services.js'

const doc = YAML.parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'))

/** The fuzz's task: every optional field at its smallest. */
const SMALL_TASK = {
  acceptance_criteria: [],
  budget: { max_cost_dollars: 0.0, max_cost_usd: 0.0, max_time_seconds: 1.0, max_tokens: 1 },
  constraints: [],
  context: {},
  goal: '0',
  metadata: {},
  priority: 'low',
}

/** The events of a Server-Sent Events text, each as its fields. */
function events(text: string): Array<Record<string, string>> {
  return text
    .split('\n\n')
    .map((block) =>
      Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)])),
    )
    .filter((fields) => 'data' in fields)
}

onEachBackend('GET /docs/openapi.yaml is the document, a YAML object', async (t, { orchestrator }) => {
  const res = await fetch(`${orchestrator}/docs/openapi.yaml`)
  t.equal(res.status, 200)
  t.match(res.headers.get('content-type'), /^application\/yaml/)
  const schema = doc.paths['/docs/openapi.yaml'].get.responses['200'].content['application/yaml'].schema
  t.equal(schema.type, 'object', 'the document says an object')
  const served = YAML.parse(await res.text())
  for (const key of schema.required) t.ok(key in served, `it holds ${key}`)
})

onEachBackend("each event of a task's stream is id, event and data", async (t, { orchestrator }) => {
  const created = await postJson(`${orchestrator}/api/v1/tasks`, SMALL_TASK)
  t.equal(created.status, 201)
  const { task_id } = (await created.json()) as { task_id: string }
  await waitForTask(orchestrator, task_id, (task) => FINAL.includes(task.status))
  const res = await fetch(`${orchestrator}/api/v1/tasks/${task_id}/events?last_event_id=0`, { headers: { 'Last-Event-ID': '0' } })
  t.equal(res.status, 200)
  const schema = doc.paths['/api/v1/tasks/{task_id}/events'].get.responses['200'].content['text/event-stream'].schema
  t.same(schema.required, ['id', 'event', 'data'], 'the document describes one event')
  const sent = events(await res.text())
  t.ok(sent.length >= 2, 'the stream holds the task created and its end')
  for (const event of sent) {
    t.same(Object.keys(event).sort(), ['data', 'event', 'id'], `event ${event.id} has the fields the document names`)
    t.match(event.id, new RegExp(schema.properties.id.pattern))
    t.match(JSON.parse(event.data ?? ''), { task_id, type: event.event, created_at: String })
  }
})

onEachBackend('X-User-ID from an admin is not read, whatever its length', async (t, { orchestrator }) => {
  const header = doc.components.parameters.UserId.schema
  t.notOk('maxLength' in header, 'the document sets no length for every caller')
  const res = await postJson(`${orchestrator}/api/v1/tasks`, SMALL_TASK, { 'X-User-ID': '0'.repeat(257) })
  t.equal(res.status, 201)
})
