/**
 * Notices that events were appended to a task's log: the NOTIFY that every insert into
 * `task_events` sends at commit (migrations/0012_task_event_notify.sql), heard by one listener
 * per process.
 *
 * ```ts
 * const notices = await listenForTaskEvents(sql, {
 *   onTask: (taskId, seq) => wakeItsStreamsBehind(taskId, seq),
 *   onResume: () => wakeEveryStream(), // notices may have been missed while the connection was down
 * })
 * await notices.close()
 * ```
 *
 * On PostgreSQL the listener is a connection of its own, outside the pool, that only listens
 * (`application_name` `ganglion-events <schema>`). When it drops (a restart, a terminated backend,
 * a network fault) it is opened again, 0.1 s later and then at most every 5 s, and `onResume` runs
 * once it listens again. Opening it the first time must succeed: a failure there is thrown.
 * On PGlite the instance's own `listen` is used, on its one connection; there is nothing to drop.
 *
 * The channel is one per database; a notice names its schema, and those of other schemas (another
 * deployment, or tests, on the same database) are ignored here.
 */
import type pg from 'pg'
import type { Sql } from './sql.js'

export const TASK_EVENTS_CHANNEL = 'ganglion_task_events'

export interface TaskEventHandlers {
  /** Events of this task were committed, the last of them numbered `seq`. */
  onTask(taskId: string, seq: number): void
  /** The listener listens again after a drop: any task may have events no notice was heard for. */
  onResume(): void
  /** The listening connection failed (it is reopened); for the log. */
  onError?(err: unknown): void
}

export interface TaskEventNotices {
  close(): Promise<void>
}

const FIRST_RETRY_MS = 100
const LAST_RETRY_MS = 5_000

export async function listenForTaskEvents(sql: Sql, handlers: TaskEventHandlers): Promise<TaskEventNotices> {
  const prefix = `${sql.schema} `
  const onPayload = (payload: string | undefined): void => {
    if (!payload?.startsWith(prefix)) return
    const space = payload.lastIndexOf(' ')
    const seq = Number(payload.slice(space + 1))
    if (space > prefix.length && Number.isSafeInteger(seq)) handlers.onTask(payload.slice(prefix.length, space), seq)
  }
  const backend = sql.jobBackend
  if (backend.kind === 'pglite') {
    if (!backend.pglite.listen) throw new TypeError('this PGlite cannot listen for notifications')
    const unlisten = await backend.pglite.listen(TASK_EVENTS_CHANNEL, onPayload)
    return { close: () => unlisten().catch(() => {}) }
  }
  // Loaded here, so the embedded mode never imports `pg`.
  const { default: driver } = await import('pg')
  const listener = new PostgresListener(driver, backend.connectionString, `ganglion-events ${sql.schema}`, onPayload, handlers)
  await listener.open()
  return listener
}

class PostgresListener implements TaskEventNotices {
  #client: pg.Client | undefined
  #retryMs = FIRST_RETRY_MS
  #timer: NodeJS.Timeout | undefined
  #closed = false

  constructor(
    private readonly driver: typeof pg,
    private readonly connectionString: string,
    private readonly applicationName: string,
    private readonly onPayload: (payload: string | undefined) => void,
    private readonly handlers: TaskEventHandlers,
  ) {}

  /** Connects and listens; throws when either fails (the connection is then closed). */
  async open(): Promise<void> {
    const client = new this.driver.Client({
      connectionString: this.connectionString,
      application_name: this.applicationName,
      keepAlive: true,
    })
    // Before connect: an error event without a listener would crash the process.
    client.on('error', (err) => this.#dropped(client, err))
    client.on('end', () => this.#dropped(client))
    client.on('notification', (msg) => {
      if (msg.channel === TASK_EVENTS_CHANNEL) this.onPayload(msg.payload)
    })
    try {
      await client.connect()
      await client.query(`listen ${TASK_EVENTS_CHANNEL}`)
    } catch (err) {
      await client.end().catch(() => {})
      throw err
    }
    if (this.#closed) {
      await client.end().catch(() => {})
      return
    }
    this.#client = client
  }

  #dropped(client: pg.Client, err?: unknown): void {
    if (client !== this.#client || this.#closed) return
    this.#client = undefined
    if (err !== undefined) this.handlers.onError?.(err)
    client.end().catch(() => {})
    this.#retry()
  }

  #retry(): void {
    const delay = this.#retryMs
    this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS)
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.open().then(
        () => {
          if (this.#closed) return
          this.#retryMs = FIRST_RETRY_MS
          this.handlers.onResume()
        },
        (err: unknown) => {
          if (this.#closed) return
          this.handlers.onError?.(err)
          this.#retry()
        },
      )
    }, delay)
    this.#timer.unref()
  }

  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#timer)
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => {})
  }
}
