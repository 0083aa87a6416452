/**
 * `ganglion run "<goal>"` and `ganglion tasks list|get|watch|cancel|delete`: the task API
 * (openapi.yaml) from a terminal or a script. See docs/cli.md.
 */
import { PRIORITIES, TASK_STATUSES, type TaskRecord } from '../stores/task.js'
import { CliError } from './client.js'
import { clientOf, type GlobalOptions, handle, printJson, wholeNumber } from './command.js'
import { EXIT, exitCodeOf } from './exit-codes.js'
import { followTask, taskPath } from './follow.js'
import { printable } from './progress.js'

export interface RunOptions extends GlobalOptions {
  criteria?: string[]
  budget?: string[]
  priority?: string
  timeout?: string
  /** false with --no-wait. */
  wait?: boolean
  detachOnInterrupt?: boolean
}

type Budget = { max_tokens?: number; max_cost_usd?: number; max_time_seconds?: number }

/**
 * `--budget` values, each one limit: `5000` or `5000tokens` (model tokens), `$0.25` or `0.25usd`
 * (model cost in US dollars), `90s` (running time in seconds).
 */
export function parseBudget(values: readonly string[]): Budget {
  const budget: Budget = {}
  for (const value of values) {
    const v = value.trim().toLowerCase()
    const tokens = /^(\d{1,12})(?:tokens)?$/.exec(v)
    const dollars = /^\$(\d{1,9}(?:\.\d{1,6})?)$/.exec(v) ?? /^(\d{1,9}(?:\.\d{1,6})?)usd$/.exec(v)
    const time = /^(\d{1,5})s$/.exec(v)
    if (tokens) budget.max_tokens = Number(tokens[1])
    else if (dollars) budget.max_cost_usd = Number(dollars[1])
    else if (time) budget.max_time_seconds = Number(time[1])
    else
      throw new CliError(
        `--budget ${JSON.stringify(value)}: must be tokens (5000), a cost in US dollars ($0.25 or 0.25usd) or seconds (90s)`,
        EXIT.USAGE,
      )
  }
  if (budget.max_tokens === 0) throw new CliError('--budget: a token budget must be at least 1', EXIT.USAGE)
  if (budget.max_time_seconds !== undefined && (budget.max_time_seconds < 1 || budget.max_time_seconds > 86400))
    throw new CliError('--budget: a time budget must be from 1s to 86400s', EXIT.USAGE)
  return budget
}

/** The create request `ganglion run` sends. */
export function createRequest(goal: string, opts: RunOptions): Record<string, unknown> {
  if (opts.priority !== undefined && !(PRIORITIES as readonly string[]).includes(opts.priority))
    throw new CliError(`--priority ${JSON.stringify(opts.priority)}: must be one of ${PRIORITIES.join(', ')}`, EXIT.USAGE)
  const budget = parseBudget(opts.budget ?? [])
  return {
    goal,
    ...(opts.criteria !== undefined && opts.criteria.length > 0 && { acceptance_criteria: opts.criteria }),
    ...(Object.keys(budget).length > 0 && { budget }),
    ...(opts.priority !== undefined && { priority: opts.priority }),
    ...(opts.timeout !== undefined && { constraints: { timeout_seconds: wholeNumber('--timeout', opts.timeout, 1, 86400) } }),
  }
}

export function runTask(goal: string, opts: RunOptions): Promise<void> {
  return handle(async () => {
    const body = createRequest(goal, opts)
    const api = clientOf(opts)
    const task = await api.request<TaskRecord>('POST', '/api/v1/tasks', body)
    if (opts.wait === false) {
      if (opts.json) printJson(task)
      else {
        process.stdout.write(`${task.task_id}\n`)
        process.stderr.write(`Submitted task ${task.task_id} (${task.status}). Follow it with: ganglion tasks watch ${task.task_id}\n`)
      }
      return exitCodeOf(task.status)
    }
    return followTask(api, task, opts.json === true, opts.detachOnInterrupt ? 'detach' : 'cancel')
  })
}

export interface ListOptions extends GlobalOptions {
  status?: string
  limit?: string
  page?: string
}

interface Page<T> {
  data: T[]
  pagination: { page: number; page_size: number; total_pages: number; total_items: number }
}

export function listTasks(opts: ListOptions): Promise<void> {
  return handle(async () => {
    if (opts.status !== undefined && !(TASK_STATUSES as readonly string[]).includes(opts.status))
      throw new CliError(`--status ${JSON.stringify(opts.status)}: must be one of ${TASK_STATUSES.join(', ')}`, EXIT.USAGE)
    const query = new URLSearchParams({
      page_size: String(wholeNumber('--limit', opts.limit ?? '20', 1, 100)),
      page: String(wholeNumber('--page', opts.page ?? '1', 1, 1_000_000)),
      ...(opts.status !== undefined && { status: opts.status }),
    })
    const page = await clientOf(opts).request<Page<TaskRecord>>('GET', `/api/v1/tasks?${query}`)
    if (opts.json) return printJson(page)
    if (page.data.length === 0) {
      process.stderr.write(opts.status === undefined ? 'No tasks.\n' : `No ${opts.status} tasks.\n`)
      return
    }
    const rows = page.data.map((t) => [t.task_id, t.status, t.priority, t.created_at, oneLine(t.goal, 60)])
    process.stdout.write(table(['ID', 'STATUS', 'PRIORITY', 'CREATED', 'GOAL'], rows))
    const p = page.pagination
    process.stderr.write(`page ${p.page} of ${p.total_pages} (${p.total_items} tasks)\n`)
  })
}

export function getTask(id: string, opts: GlobalOptions): Promise<void> {
  return handle(async () => {
    const task = await clientOf(opts).request<TaskRecord>('GET', taskPath(id))
    if (opts.json) return printJson(task)
    const lines = [
      ['task', task.task_id],
      ['status', task.status],
      ['goal', oneLine(task.goal, 200)],
      ['priority', task.priority],
      ['created', task.created_at],
      ['completed', task.completed_at ?? '-'],
      ['steps', `${task.progress.completed_steps}/${task.progress.total_steps}`],
    ]
    process.stdout.write(lines.map(([k, v]) => `${k!.padEnd(10)}${v}\n`).join(''))
    const steps = task.plan.steps.map((s) => [
      `  ${s.step_id}`,
      `${s.arm}/${s.tool ?? '-'}`,
      s.status,
      s.error ? printable(s.error.code) : '',
    ])
    if (steps.length > 0) process.stdout.write(table(['  STEP', 'ARM/TOOL', 'STATUS', 'ERROR'], steps))
    const answer = (task.result as { answer?: unknown } | null)?.answer
    if (answer !== undefined && answer !== null) process.stdout.write(`answer    ${oneLine(JSON.stringify(answer), 500)}\n`)
    if (task.error) process.stdout.write(`error     ${printable(task.error.code)}: ${oneLine(task.error.message, 500)}\n`)
  })
}

export function watchTask(id: string, opts: GlobalOptions): Promise<void> {
  return handle(async () => {
    const api = clientOf(opts)
    const task = await api.request<TaskRecord>('GET', taskPath(id))
    return followTask(api, task, opts.json === true, 'detach')
  })
}

export function cancelTask(id: string, opts: GlobalOptions): Promise<void> {
  return handle(async () => {
    const task = await clientOf(opts).request<TaskRecord>('POST', `${taskPath(id)}/cancel`)
    if (opts.json) return printJson(task)
    const already = task.status === 'cancelling' || task.status === 'cancelled' ? '' : 'is already '
    process.stdout.write(`Task ${task.task_id} ${already}${task.status}\n`)
  })
}

/** Deletes a finished task's record (`DELETE /api/v1/tasks/{id}/record`); a task still running is the service's 409. */
export function deleteTask(id: string, opts: GlobalOptions): Promise<void> {
  return handle(async () => {
    await clientOf(opts).request('DELETE', `${taskPath(id)}/record`)
    if (opts.json) return printJson({ task_id: id, deleted: true })
    process.stdout.write(`Task ${printable(id)} deleted\n`)
  })
}

/** Text from the service on one line of at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = printable(text)
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}\n`
  return line(header) + rows.map(line).join('')
}
