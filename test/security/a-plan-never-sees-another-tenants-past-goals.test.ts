// The planner's similar-task hints come from the task's own tenant's past tasks only: a task of
// tenant b is never shown tenant a's goals, neither in its `task.planned` event (`similar_tasks`)
// nor in the prompt the planner sends the model. Before tenants episodic memory was one pool: b's
// plan listed a's past goal, task id and outcome, and the model was shown them as examples.
//
// The model is a local stand-in that records what it is sent and refuses to plan (400), so the
// planner falls back to its heuristic and the tasks still complete; a's second task is the check
// that the hints work at all (it is shown a's first).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import { type Client, nonce, onEachBackend, submit, waitFinal } from './tenants-fixture.js'

async function recordingModel(t: Test): Promise<{ url: string; prompts: string[] }> {
  const prompts: string[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')))
    req.on('end', () => {
      prompts.push(raw)
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: 'this stand-in plans nothing', type: 'invalid_request_error' } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, prompts }
}

/** The `similar_tasks` of the task's `task.planned` event, read as its own tenant. */
async function similarOf(client: Client, id: string): Promise<Array<{ task_id: string; goal: string }>> {
  const log = await (await client.get(`/api/v1/tasks/${id}/events`)).text()
  const planned = log.split('\n\n').find((block) => block.includes('event: task.planned'))
  const data = planned?.split('\n').find((line) => line.startsWith('data: '))
  if (data === undefined) throw new Error(`task ${id} has no task.planned event`)
  return (JSON.parse(data.slice('data: '.length)) as { similar_tasks: Array<{ task_id: string; goal: string }> }).similar_tasks
}

async function run(t: Test, client: Client, goal: string): Promise<Record<string, any>> {
  const task = await waitFinal(client, (await submit(client, { goal })).task_id)
  t.equal(task.status, 'completed', JSON.stringify(task.error))
  return task
}

/** What the model stand-in of the running variant was sent. */
let prompts: string[] = []

onEachBackend(
  "a plan never sees another tenant's past goals",
  async (t, service) => {
    const a = service.as('tenant-a-member')
    const b = service.as('tenant-b-member')
    const word = nonce()
    const goal = (animal: string) =>
      `Redact the personal data in: minutes of the lighthouse keepers meeting ${word} about the ${animal} budget`

    const first = await run(t, a, goal('quokka'))
    await new Promise((r) => setTimeout(r, 500)) // its episode is written just after it completes
    const second = await run(t, a, goal('wallaby'))
    t.ok(
      (await similarOf(a, second.task_id)).some((s) => s.task_id === first.task_id),
      "a's second task is shown a's first: the hints work",
    )
    t.ok(
      prompts.some((p) => p.includes('wallaby') && p.includes('quokka')),
      "and the model was shown a's first goal while planning a's second",
    )

    const before = prompts.length
    const theirs = await run(t, b, goal('numbat'))
    const hints = await similarOf(b, theirs.task_id)
    t.same(
      hints.filter((s) => s.task_id === first.task_id || s.task_id === second.task_id),
      [],
      "b's task.planned names none of a's tasks",
    )
    t.notMatch(JSON.stringify(hints), /quokka|wallaby/, "nor any of a's goals")
    const toModel = prompts.slice(before).filter((p) => p.includes('numbat'))
    t.ok(toModel.length > 0, "b's plan was asked of the model")
    for (const prompt of toModel) t.notMatch(prompt, /quokka|wallaby/, "b's plan prompt shows none of a's goals")
  },
  {
    env: async (t) => {
      const model = await recordingModel(t)
      prompts = model.prompts
      return { LLM_PROVIDER: 'openai', LLM_BASE_URL: model.url, LLM_MODEL: 'stand-in' }
    },
  },
)
