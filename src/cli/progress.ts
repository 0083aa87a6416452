/**
 * What `ganglion run` and `ganglion tasks watch` show while a task runs, on stderr (stdout is kept
 * for the answer): on a terminal one line rewritten in place (status, current step and arm, steps
 * done, elapsed time); elsewhere one plain line per event, with no carriage return or escape code.
 */
import type { SseEvent } from './client.js'

export interface Progress {
  event(e: SseEvent): void
  /** A line of its own (a notice such as "cancelling"), kept above the live line. */
  note(text: string): void
  /** Clears the live line; nothing is drawn after. */
  stop(): void
}

interface Out {
  write(text: string): unknown
  isTTY?: boolean
  columns?: number
}

export function createProgress(out: Out, taskId: string): Progress {
  return out.isTTY ? new LiveLine(out, taskId) : new PlainLines(out)
}

/** Text from the service made safe to print: control characters (escape codes among them) become spaces. */
export function printable(text: string): string {
  let out = ''
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0
    out += c < 0x20 || (c >= 0x7f && c < 0xa0) ? ' ' : ch
  }
  return out
}

function str(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? printable(String(value)) : ''
}

/** One event in a few words: what a person following the task needs. */
export function describe(e: SseEvent): string {
  const d = e.data
  const step = str(d.step_id)
  switch (e.event) {
    case 'task.created':
      return `task ${str(d.task_id)} created (${str(d.status)}, priority ${str(d.priority)})`
    case 'task.status':
      return `status ${str(d.status)}`
    case 'task.planned':
      return `planned (${str(d.source) || 'planner'})`
    case 'task.plan':
      return `plan of ${str(d.total_steps)} steps`
    case 'task.replanned':
      return `replanned: ${str(d.total_steps)} steps`
    case 'budget.usage': {
      const tokens = (Number(d.prompt) || 0) + (Number(d.completion) || 0)
      return `step ${step} used ${tokens} model tokens${d.model ? ` (${str(d.model)})` : ''}`
    }
    case 'step.started':
      return `step ${step} started on ${str(d.arm)} (attempt ${str(d.attempt) || '1'})`
    default: {
      const status = str(d.status)
      const error = d.error as { code?: unknown } | null | undefined
      const code = error?.code === undefined ? '' : `(${str(error.code)})`
      if (e.event.startsWith('step.') && step !== '')
        return ['step', step, status || printable(e.event.slice(5)), code].filter(Boolean).join(' ')
      return [printable(e.event), step, status, code].filter(Boolean).join(' ')
    }
  }
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`
}

class PlainLines implements Progress {
  private readonly since = Date.now()
  constructor(private readonly out: Out) {}

  event(e: SseEvent): void {
    this.out.write(`[${seconds(this.since).padStart(7)}] ${describe(e)}\n`)
  }

  note(text: string): void {
    this.out.write(`${text}\n`)
  }

  stop(): void {}
}

const SPINNER = ['|', '/', '-', '\\']

class LiveLine implements Progress {
  private readonly since = Date.now()
  private status = 'queued'
  private step = ''
  private arm = ''
  private done = 0
  private total = 0
  private frame = 0
  private readonly ticker: NodeJS.Timeout

  constructor(
    private readonly out: Out,
    private readonly taskId: string,
  ) {
    this.ticker = setInterval(() => this.draw(), 250)
    this.ticker.unref()
    this.draw()
  }

  event(e: SseEvent): void {
    const d = e.data
    if (e.event === 'task.status' || e.event === 'task.created') this.status = str(d.status) || this.status
    if (e.event === 'task.plan' || e.event === 'task.replanned') this.total = Number(d.total_steps) || this.total
    if (e.event === 'step.started') {
      this.step = str(d.step_id)
      this.arm = str(d.arm)
    }
    if (e.event === 'step.completed') this.done++
    this.draw()
  }

  note(text: string): void {
    this.out.write(`\r\x1b[2K${text}\n`)
    this.draw()
  }

  stop(): void {
    clearInterval(this.ticker)
    this.out.write('\r\x1b[2K')
  }

  private draw(): void {
    const spin = SPINNER[this.frame++ % SPINNER.length]
    const step = this.step === '' ? '' : ` · step ${this.step} (${this.arm})`
    const count = this.total > 0 ? ` ${Math.min(this.done, this.total)}/${this.total}` : ''
    const line = `${spin} ${this.taskId.slice(0, 8)} ${this.status}${step}${count} · ${seconds(this.since)}`
    const width = Math.max(20, (this.out.columns || 80) - 1)
    this.out.write(`\r\x1b[2K${line.slice(0, width)}`)
  }
}
