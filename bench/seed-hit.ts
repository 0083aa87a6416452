/**
 * Makes a text a cache hit for `/api/v1/check` the way the service does: a task whose goal is the
 * text, submitted to the orchestrator and run to completion, stores its answer under the tenant's
 * key for that exact text (`TaskService.remember`), and a check of the text with the default flags
 * (PII and injection, the flags a goal is checked with) answers from it. A value stored with
 * `POST /api/v1/cache` never answers a check (docs/cache-and-limits.md), so this is the only way.
 * The reflex routes must share the orchestrator's process (`ganglion start`): without Redis the
 * cache lives in that process alone.
 *
 * ```ts
 * await seedHit({ orchestratorPort: 18103, reflexPort: 18102, text: TEXT_GOAL })
 * ```
 *
 * Throws, with the task's status and error, unless the task completes and a check of the text then
 * answers `cache_hit: true`.
 */

export interface SeedHit {
  orchestratorPort: number
  reflexPort: number
  /** The goal, and the check's text. */
  text: string
  /** Sent with every request: the credential whose tenant the task and the checks act in. */
  headers?: Record<string, string>
  /** How long the task may take, ms (default 120 s). */
  timeoutMs?: number
}

const HOST = '127.0.0.1'
const FINAL = ['completed', 'failed', 'cancelled', 'timed_out', 'rejected']
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function seedHit(opts: SeedHit): Promise<{ taskId: string; ms: number }> {
  const started = performance.now()
  const until = Date.now() + (opts.timeoutMs ?? 120_000)
  const headers = { 'content-type': 'application/json', ...opts.headers }
  const orchestrator = `http://${HOST}:${opts.orchestratorPort}/api/v1`

  const created = await fetch(`${orchestrator}/tasks`, { method: 'POST', headers, body: JSON.stringify({ goal: opts.text }) })
  const task = (await created.json()) as { task_id?: string; status?: string; error?: unknown }
  if (created.status !== 201 || task.task_id === undefined) {
    throw new Error(`seeding the hit: POST /api/v1/tasks answered ${created.status}: ${JSON.stringify(task)}`)
  }
  const taskId = task.task_id
  let status = task.status ?? ''
  let error: unknown = task.error
  while (!FINAL.includes(status)) {
    if (Date.now() > until) throw new Error(`seeding the hit: task ${taskId} still ${status} after ${opts.timeoutMs ?? 120_000} ms`)
    await pause(200)
    const r = await fetch(`${orchestrator}/tasks/${taskId}`, { headers })
    const body = (await r.json()) as { status: string; error: unknown }
    status = body.status
    error = body.error
  }
  if (status !== 'completed') throw new Error(`seeding the hit: task ${taskId} ended ${status}: ${JSON.stringify(error)}`)

  // The answer is stored just after the task is marked completed: a few probes may miss first.
  const check = JSON.stringify({ text: opts.text })
  for (let probe = 0; probe < 50; probe++) {
    const r = await fetch(`http://${HOST}:${opts.reflexPort}/api/v1/check`, { method: 'POST', headers, body: check })
    const body = (await r.json()) as { cache_hit?: boolean }
    if (r.status === 200 && body.cache_hit === true) return { taskId, ms: performance.now() - started }
    await pause(100)
  }
  throw new Error(`seeding the hit: task ${taskId} completed, but a check of its goal does not hit`)
}
