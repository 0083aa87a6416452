// Every task is bounded in model tokens: one that sets no budget is stored with
// TASK_DEFAULT_MAX_TOKENS, and a budget over TASK_MAX_TOKENS (in budget.max_tokens or in the
// legacy constraints.max_tokens) is refused with the spec error object. A limit the client set
// in constraints is its own: the default is not added beside it.
import { nonce, onEachBackend, submit } from './tenants-fixture.js'

onEachBackend(
  'a task without a token budget gets the default, and none passes the maximum',
  async (t, service) => {
    const a = service.as('tenant-a-member')
    const plain = await submit(a, { goal: `Summarise the ${nonce()} report` })
    const capped = await submit(a, { goal: `Summarise the ${nonce()} report`, budget: { max_tokens: 5000 } })
    const constrained = await submit(a, { goal: `Summarise the ${nonce()} report`, constraints: { max_tokens: 300 } })
    const timed = await submit(a, { goal: `Summarise the ${nonce()} report`, budget: { max_time_seconds: 30 } })

    for (const [body, field] of [
      [{ budget: { max_tokens: 5001 } }, 'budget.max_tokens'],
      [{ constraints: { max_tokens: 5001 } }, 'constraints.max_tokens'],
      [{ budget: { max_tokens: 10 }, constraints: { max_tokens: 9_999_999 } }, 'constraints.max_tokens'],
    ] as const) {
      const res = await a.post('/api/v1/tasks', { goal: `Summarise the ${nonce()} report`, ...body })
      t.equal(res.status, 400, JSON.stringify(body))
      const { error } = (await res.json()) as { error: { code: string; details: unknown } }
      t.equal(error.code, 'VALIDATION_ERROR')
      t.same(error.details, { field, constraint: 'must be at most 5000' })
    }

    const sql = await service.inspect()
    const budgetOf = async (id: string) =>
      (await sql.query<{ budget: unknown }>('select budget from tasks where task_id = $1', [id])).rows[0]?.budget
    t.same(await budgetOf(plain.task_id), { max_tokens: 1234 }, 'no budget: the default')
    t.same(await budgetOf(capped.task_id), { max_tokens: 5000 }, 'the maximum itself is allowed')
    t.same(await budgetOf(constrained.task_id), {}, 'constraints.max_tokens bounds the task already')
    t.same(await budgetOf(timed.task_id), { max_time_seconds: 30, max_tokens: 1234 }, 'a budget without tokens gets the default')
    const { rows } = await sql.query<{ n: number | string }>("select count(*) as n from tasks where tenant = 'a'")
    t.equal(Number(rows[0]?.n), 4, 'nothing refused was stored')
  },
  { inspect: true, env: { TASK_WORKERS: '0', TASK_DEFAULT_MAX_TOKENS: '1234', TASK_MAX_TOKENS: '5000' } },
)
