// budget.max_cost_usd is enforced, never only stored: with no price for the configured model it is
// refused at creation; with one (LLM_PRICES) every model call is charged at it, a call may spend
// only what the dollars left buy, and the task stops the way an exhausted token budget stops it. The model is the local replay server, answering every request with a
// recorded completion that reports 2000 prompt and 500 completion tokens.
import { replayServer } from '../llm/fixtures/replay-server.js'
import { nonce, onEachBackend, submit, waitFinal } from './tenants-fixture.js'

const PRICES = JSON.stringify({ 'stand-in': { input_per_mtok: 1000, output_per_mtok: 2000 } })
// 2000 × $0.001 + 500 × $0.002
const COST_OF_A_CALL = 3

async function model(t: Parameters<typeof replayServer>[0]): Promise<Record<string, string>> {
  // A plan request gets a usable plan (an unusable one would be asked again, a second call).
  const { url } = await replayServer(t, (request) => ({
    fixture: request.body?.response_format ? 'openai/plan-costly.json' : 'openai/chat-completion-costly.json',
  }))
  return { LLM_PROVIDER: 'openai', LLM_BASE_URL: `${url}/v1`, LLM_MODEL: 'stand-in' }
}

onEachBackend(
  'a cost budget is refused when the model has no price',
  async (t, service) => {
    const a = service.as('tenant-a-member')
    for (const budget of [{ max_cost_usd: 1 }, { max_cost_dollars: 1 }]) {
      const res = await a.post('/api/v1/tasks', { goal: `Search the knowledge base for the ${nonce()} report and summarise it`, budget })
      t.equal(res.status, 400, JSON.stringify(budget))
      const { error } = (await res.json()) as { error: { code: string; details: { field: string; constraint: string } } }
      t.equal(error.code, 'VALIDATION_ERROR')
      t.equal(error.details.field, 'budget.max_cost_usd')
      t.match(error.details.constraint, /no price is configured for the model "stand-in"/)
    }
    t.equal(
      (await a.post('/api/v1/tasks', { goal: `Search the knowledge base for the ${nonce()} report and summarise it` })).status,
      201,
      'a task without one is taken',
    )
  },
  { env: async (t) => ({ ...(await model(t)), TASK_WORKERS: '0' }) },
)

onEachBackend(
  'a cost budget is taken on the offline provider, whose calls cost nothing',
  async (t, service) => {
    const a = service.as('tenant-a-member')
    const task = await submit(a, {
      goal: `Search the knowledge base for the ${nonce()} report and summarise it`,
      budget: { max_cost_usd: 0.01 },
    })
    t.equal(task.status, 'queued')
  },
  { env: { TASK_WORKERS: '0' } },
)

onEachBackend(
  'a cost budget is charged at the price and stops the task once spent',
  async (t, service) => {
    const a = service.as('tenant-a-member')
    const run = async (max_cost_usd: number) =>
      waitFinal(
        a,
        (await submit(a, { goal: `Search the knowledge base for the ${nonce()} report and summarise it`, budget: { max_cost_usd } }))
          .task_id,
      )
    const events = async (id: string, type: string) =>
      (await (await a.get(`/api/v1/tasks/${id}/events`)).text())
        .split('\n\n')
        .filter((block) => block.includes(`event: ${type}\n`))
        .map((block) =>
          JSON.parse(
            block
              .split('\n')
              .find((l) => l.startsWith('data: '))!
              .slice('data: '.length),
          ),
        )

    // The planner's one model call fits in $10: charged at the price.
    const paid = await run(10)
    t.equal(paid.status, 'completed', JSON.stringify(paid.error))
    t.same(
      (await events(paid.task_id, 'budget.usage')).map((u) => u.cost_usd),
      [COST_OF_A_CALL],
      'the call is charged its usage at the price',
    )

    // $0.10 buys 50 tokens at the dearer price: not even the planner's prompt. The model is never asked.
    const broke = await run(0.1)
    t.equal(broke.status, 'failed')
    // What a task whose token budget runs out while planning ends with, the same here.
    t.match(broke.error, { code: 'LLM_BUDGET_EXCEEDED', message: /token budget exhausted: 50 of 50 tokens left/, retryable: false })
    t.equal((await events(broke.task_id, 'budget.exceeded')).length, 1, 'the refusal is logged as a budget one')
    t.same(await events(broke.task_id, 'budget.usage'), [], 'nothing was spent')

    const sql = await service.inspect()
    const { rows } = await sql.query<{ task_id: string; used: number; held: number }>(
      'select task_id, cost_used_usd as used, cost_reserved_usd as held from tasks where task_id = any($1::text[])',
      [[paid.task_id, broke.task_id]],
    )
    const cost = Object.fromEntries(rows.map((r) => [r.task_id, [Number(r.used), Number(r.held)]]))
    t.same(cost[paid.task_id], [COST_OF_A_CALL, 0], 'the cost is recorded, its hold released')
    t.same(cost[broke.task_id], [0, 0], 'nothing charged or held for the stopped task')
  },
  { inspect: true, env: async (t) => ({ ...(await model(t)), LLM_PRICES: PRICES }) },
)
