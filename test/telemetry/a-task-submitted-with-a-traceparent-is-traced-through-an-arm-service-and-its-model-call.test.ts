// A task submitted with a W3C traceparent is one trace from the client to the model: the request's
// server span, the task, its planning and its step, each arm call (the client span here and the
// server span in the arm's own process) and the model call the arm makes, every span parented
// as the work nested, exported by OTLP/HTTP to a local receiver from both processes. The planner
// arm runs as its own process and asks a local OpenAI-compatible stand-in, which sees the
// traceparent of the model call's span and the client's X-Request-ID.
import { createServer } from 'node:net'
import t from 'tap'
import { startGanglionProcess } from '../fixtures/ganglion-process.js'
import { modelStandIn } from '../helpers/model-stand-in.js'
import { otlpReceiver, type ReceivedSpan, until } from '../helpers/otlp-receiver.js'
import { FINAL, postJson, startServices, waitForTask } from '../helpers/servers.js'

// The arm process reads the environment it inherits: it plans without a database here.
delete process.env.DATABASE_URL
process.env.OTEL_BSP_SCHEDULE_DELAY = '100'

// Two processes (and a build of dist/ when it is older than src/) on two shared cores.
t.setTimeout(300_000)

/** A port in `from..to` nothing listens on just now. */
async function freePortIn(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port++) {
    const server = createServer()
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (free) {
      await new Promise((resolve) => server.close(resolve))
      return port
    }
  }
  throw new Error(`no free port in ${from}..${to}`)
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const CLIENT_SPAN = '00f067aa0ba902b7'
const SERVER = 2
const CLIENT = 3

t.test('client → orchestrator → arm service → model, one trace with the right parents', async (t) => {
  const receiver = await otlpReceiver(t)
  const model = await modelStandIn(t)
  const orchestratorPort = await freePortIn(18300, 18349)
  const llm = { LLM_PROVIDER: 'openai', LLM_BASE_URL: model.url, LLM_MODEL: 'stand-in' }
  const arm = await startGanglionProcess(['arm', 'planner'], await freePortIn(18350, 18399), {
    ...llm,
    ORCHESTRATOR_URL: `http://127.0.0.1:${orchestratorPort}`,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  })
  t.teardown(() => arm.stop())
  const running = await startServices(
    t,
    { orchestrator: true },
    { ...llm, PORT: String(orchestratorPort), ARM_PLANNER_URL: arm.url, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
  )
  const base = `http://127.0.0.1:${running.ports.orchestrator}`

  const goal = 'Compute six times seven for ada@example.com'
  const res = await postJson(
    `${base}/api/v1/tasks`,
    { goal },
    { traceparent: `00-${TRACE}-${CLIENT_SPAN}-01`, tracestate: 'vendor=1', 'x-request-id': 'client-req-7' },
  )
  t.equal(res.status, 201)
  t.equal(res.headers.get('x-request-id'), 'client-req-7')
  const taskId = (await res.json()).task_id as string
  const task = await waitForTask(base, taskId, (x) => FINAL.includes(x.status), 30_000)
  t.equal(task.status, 'completed', JSON.stringify(task.error))

  const ours = () => receiver.spans.filter((s) => s.traceId === TRACE)
  const named = (name: string, service?: string) =>
    ours().filter((s) => s.name === name && (service === undefined || s.service === service))
  t.ok(
    await until(() => named('task').length === 1 && named('chat stand-in').length >= 1 && named('POST /execute').length >= 1),
    'the spans of both processes arrive',
  )
  const one = (name: string, service?: string): ReceivedSpan => {
    const found = named(name, service)
    t.equal(found.length, 1, `one ${name} span`)
    return found[0]!
  }

  const server = one('POST /api/v1/tasks', 'ganglion-orchestrator')
  t.equal(server.kind, SERVER)
  t.equal(server.parentSpanId, CLIENT_SPAN, "the request's span is a child of the client's")
  t.equal(server.attributes['http.response.status_code'], 201)

  const taskSpan = one('task', 'ganglion-orchestrator')
  t.equal(taskSpan.parentSpanId, server.spanId, 'the task is a child of the request that submitted it')
  t.equal(taskSpan.attributes['ganglion.task.id'], taskId)
  t.equal(taskSpan.attributes['ganglion.task.status'], 'completed')

  const plan = one('task.plan')
  t.equal(plan.parentSpanId, taskSpan.spanId, 'planning is part of the task')
  const planCall = one('arm planner', 'ganglion-orchestrator')
  t.equal(planCall.kind, CLIENT)
  t.equal(planCall.parentSpanId, plan.spanId, 'the call to the planner arm is part of planning')

  const armServer = one('POST /execute', 'ganglion-arm-planner')
  t.equal(armServer.kind, SERVER)
  t.equal(armServer.parentSpanId, planCall.spanId, "the arm service's span continues the orchestrator's call")

  const chat = one('chat stand-in', 'ganglion-arm-planner')
  t.equal(chat.kind, CLIENT)
  t.equal(chat.parentSpanId, armServer.spanId, 'the model call is made inside the arm request')
  t.match(chat.attributes, {
    'gen_ai.system': 'openai',
    'gen_ai.request.model': 'stand-in',
    'gen_ai.response.model': 'stand-in',
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.usage.output_tokens': 7,
  })

  const steps = named('task.step')
  t.equal(steps.length, task.plan.steps.length, 'a span per step')
  for (const step of steps) {
    const id = step.attributes['ganglion.step.id']
    t.equal(step.parentSpanId, taskSpan.spanId, `step ${id} is part of the task`)
    const calls = ours().filter((s) => s.parentSpanId === step.spanId && s.name === `arm ${step.attributes['ganglion.arm']}`)
    t.equal(calls.length, 1, `the arm call of step ${id} is part of it`)
  }
  t.match(steps.find((s) => s.attributes['ganglion.step.id'] === 's1')?.attributes, {
    'ganglion.arm': 'executor',
    'ganglion.tool': 'javascript',
  })

  for (const s of ours()) t.ok(s.startNs >= taskSpan.startNs - 1_000_000_000n || s === server, `${s.name} starts within the trace`)
  const everything = JSON.stringify(ours().map((s) => s.attributes))
  t.notMatch(everything, 'ada@example.com', 'no personal data in any span')
  t.notMatch(everything, 'six times seven', 'no goal text in any span')

  const chats = model.requests.filter((r) => r.path.endsWith('/chat/completions'))
  t.ok(chats.length >= 1, 'the planner asked the model')
  const sent = chats[0]!.headers
  t.equal(sent.traceparent, `00-${TRACE}-${chat.spanId}-01`, "the model server got the model call's traceparent")
  t.equal(sent.tracestate, 'vendor=1', "and the client's tracestate")
  t.equal(sent['x-request-id'], 'client-req-7', "and the client's request id, passed on by the arm service")
})
