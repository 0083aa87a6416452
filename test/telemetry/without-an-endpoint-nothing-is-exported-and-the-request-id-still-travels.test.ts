// Tracing is off unless an OTLP endpoint is set: a task submitted with a traceparent runs as
// usual, no span leaves the process and no traceparent is sent on, while the request's id still
// reaches the model the planner asks.
import t from 'tap'
import { tracingOn } from '../../src/telemetry/tracing.js'
import { modelStandIn } from '../helpers/model-stand-in.js'
import { otlpReceiver } from '../helpers/otlp-receiver.js'
import { FINAL, orchestratorUrl, postJson, waitForTask } from '../helpers/servers.js'

t.test('no endpoint: no export, no traceparent, no error; X-Request-ID is forwarded', async (t) => {
  const receiver = await otlpReceiver(t)
  const model = await modelStandIn(t)
  const base = await orchestratorUrl(t, { LLM_PROVIDER: 'openai', LLM_BASE_URL: model.url, LLM_MODEL: 'stand-in' })
  t.equal(tracingOn(), false, 'tracing is off')

  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
  const res = await postJson(`${base}/api/v1/tasks`, { goal: 'Compute six times seven' }, { traceparent, 'x-request-id': 'quiet-1' })
  t.equal(res.status, 201)
  t.equal(res.headers.get('x-request-id'), 'quiet-1', 'the id is echoed')
  t.equal(res.headers.get('traceparent'), null, 'no trace header is answered')
  const task = await waitForTask(base, (await res.json()).task_id, (x) => FINAL.includes(x.status))
  t.equal(task.status, 'completed', JSON.stringify(task.error))

  const chats = model.requests.filter((r) => r.path.endsWith('/chat/completions'))
  t.ok(chats.length >= 1, 'the planner asked the model')
  for (const r of chats) {
    t.equal(r.headers['x-request-id'], 'quiet-1', 'the model call carries the request id')
    t.equal(r.headers.traceparent, undefined, 'and no traceparent')
  }
  await new Promise((r) => setTimeout(r, 300))
  t.equal(receiver.posts(), 0, 'nothing was exported')
})
