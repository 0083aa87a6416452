/**
 * Following a task to its end, shared by `ganglion run` and `ganglion tasks watch`: the progress
 * on stderr, Ctrl-C, and the outcome (the answer on stdout, or the whole record with `--json`)
 * with the exit code of the task's final status.
 *
 * Ctrl-C while `run` follows its task asks the service to cancel it and waits for the cancelled
 * status (a second Ctrl-C stops waiting); with `--detach-on-interrupt`, and always for `tasks
 * watch`, Ctrl-C only stops following and the task runs on. Either way a stop before the end exits 130.
 */
import { isFinal, type TaskRecord } from '../stores/task.js'
import type { ApiClient } from './client.js'
import { EXIT, exitCodeOf } from './exit-codes.js'
import { createProgress, type Progress, printable } from './progress.js'

export type OnInterrupt = 'cancel' | 'detach'

const SILENT: Progress = { event() {}, note() {}, stop() {} }

export function taskPath(id: string): string {
  return `/api/v1/tasks/${encodeURIComponent(id)}`
}

/** Follows the task until it is final (or Ctrl-C stops that), prints the outcome, and returns the exit code. */
export async function followTask(api: ApiClient, task: TaskRecord, json: boolean, onInterrupt: OnInterrupt): Promise<number> {
  if (isFinal(task.status)) return printOutcome(task, json)
  const id = task.task_id
  const progress = json ? SILENT : createProgress(process.stderr, id)
  const stop = new AbortController()
  let interrupts = 0
  const onSigint = () => {
    interrupts++
    if (onInterrupt === 'cancel' && interrupts === 1) {
      progress.note(`Cancelling task ${id} (Ctrl-C again to stop waiting)`)
      api.request('POST', `${taskPath(id)}/cancel`).catch((err: Error) => progress.note(`error: could not cancel: ${err.message}`))
      return
    }
    stop.abort()
  }
  process.on('SIGINT', onSigint)
  let status: string | undefined
  try {
    status = await api.follow(id, (e) => progress.event(e), stop.signal)
  } finally {
    process.off('SIGINT', onSigint)
    progress.stop()
  }
  if (status === undefined) {
    const what = interrupts > 1 ? 'its cancellation was asked for' : 'it keeps running'
    process.stderr.write(`Stopped following task ${id}; ${what}. Follow it again with: ganglion tasks watch ${id}\n`)
    return EXIT.INTERRUPTED
  }
  return printOutcome(await api.request<TaskRecord>('GET', taskPath(id)), json)
}

/** The answer (or the record with --json) on stdout, how the task ended on stderr; the exit code of its status. */
export function printOutcome(task: TaskRecord, json: boolean): number {
  if (json) {
    process.stdout.write(`${JSON.stringify(task)}\n`)
    return exitCodeOf(task.status)
  }
  const id = task.task_id
  const took = task.completed_at !== null ? ` in ${elapsed(task.created_at, task.completed_at)}` : ''
  if (task.status === 'completed') {
    const answer = (task.result as { answer?: unknown } | null)?.answer
    if (answer === undefined || answer === null) {
      process.stderr.write(`Task ${id} completed${took} without an answer; see: ganglion tasks get ${id} --json\n`)
    } else {
      process.stdout.write(`${answerText(answer)}\n`)
      process.stderr.write(`Task ${id} completed${took}.\n`)
    }
  } else {
    const error = task.error ? `: ${printable(task.error.code)}: ${printable(task.error.message)}` : ''
    process.stderr.write(`Task ${id} ${task.status.replace('_', ' ')}${took}${error}\n`)
  }
  return exitCodeOf(task.status)
}

/** A text answer as written (line breaks kept, other control characters as spaces); anything else as JSON. */
export function answerText(answer: unknown): string {
  if (typeof answer !== 'string') return JSON.stringify(answer, null, 2)
  return answer.split('\n').map(printable).join('\n')
}

function elapsed(from: string, to: string): string {
  const ms = Date.parse(to) - Date.parse(from)
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)}s` : '?'
}
