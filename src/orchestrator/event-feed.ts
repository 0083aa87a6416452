/**
 * Wakes the event streams of a process when their tasks have new events, so an idle stream costs
 * no query at all: one listener per process hears every append (src/stores/task-event-notices.ts)
 * and wakes the streams that follow that task, and nothing else reads the database for them.
 *
 * ```ts
 * const feed = await EventFeed.open(sql, { log })
 * const follower = feed.follow(taskId)      // before the first read, so no append is missed
 * try {
 *   for (;;) {
 *     const events = await store.eventsAfter(scope, taskId, seq, 200)
 *     seq = events.at(-1)?.seq ?? seq
 *     follower.seen(seq)                     // then send them
 *     while (!(await follower.wait(15_000, signal)) && !signal.aborted) sendKeepAlive()
 *   }
 * } finally {
 *   follower.stop()
 * }
 * await feed.close()
 * ```
 *
 * A wake means "read again", nothing more: the stream reads what follows its own last event id,
 * so a wake too many costs one read and a notice twice changes nothing. Wakes come from:
 * - a notice for the task (an append committed), for the streams that have not read as far;
 * - the listener listening again after its connection dropped: every stream, since notices may
 *   have been lost meanwhile;
 * - the safety poll: every `safetyPollMs` the process asks, in one query for all the tasks it
 *   follows, how far each task's log goes, and wakes the waiting streams behind it, or whose
 *   task is final or gone (a stream resumed from a `Last-Event-ID` past the log hears no notice
 *   and still ends). A notice that never arrives only delays a stream by up to that long.
 *
 * The poll reads `tasks.event_seq` across tenants: it only decides whom to wake; what a stream
 * reads is still scoped to its caller's tenant.
 */
import type { Sql } from '../stores/sql.js'
import { FINAL_STATUSES } from '../stores/task.js'
import { listenForTaskEvents, type TaskEventNotices } from '../stores/task-event-notices.js'

export interface EventFeedOptions {
  /** How often the one safety query runs while any stream is open. Default 5000. */
  safetyPollMs?: number
  log?: { warn(obj: object, msg?: string): void }
}

/** Task ids asked about per safety query. */
const POLL_CHUNK = 1000

export class Follower {
  /** The last event id its stream has read. */
  seq = 0
  /**
   * Up to which event id a wake asked the stream to read (Infinity: a wake without a number); a
   * wait ends only while this is past `seq`, so a notice of events the stream read since is spent.
   */
  #due = 0
  #wakeUp: (() => void) | undefined

  constructor(
    readonly taskId: string,
    private readonly leave: (follower: Follower) => void,
  ) {}

  /** Tells the feed how far the stream has read: notices and the poll wake it only for more. */
  seen(seq: number): void {
    this.seq = seq
  }

  /** Resolves true once woken (at once if woken since the last wait), false after `ms` or on `signal`. */
  wait(ms: number, signal: AbortSignal): Promise<boolean> {
    if (this.#due > this.seq || signal.aborted) return Promise.resolve(this.#take())
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        this.#wakeUp = undefined
        resolve(this.#take())
      }
      const timer = setTimeout(done, ms)
      signal.addEventListener('abort', done, { once: true })
      this.#wakeUp = done
    })
  }

  /** Asks the stream to read the events up to `upTo` (default: whatever there is). */
  wake(upTo = Number.POSITIVE_INFINITY): void {
    if (upTo <= this.#due) return
    this.#due = upTo
    if (upTo > this.seq) this.#wakeUp?.()
  }

  /** In a wait now: a stream that is reading needs no wake from the safety poll, it reads anyway. */
  get waiting(): boolean {
    return this.#wakeUp !== undefined
  }

  /** Stops following; the stream calls this however it ends. */
  stop(): void {
    this.leave(this)
  }

  #take(): boolean {
    const woken = this.#due > this.seq
    this.#due = 0
    return woken
  }
}

export class EventFeed {
  readonly #followers = new Map<string, Set<Follower>>()
  readonly #sql: Sql
  readonly #log: EventFeedOptions['log']
  #notices: TaskEventNotices | undefined
  #timer: NodeJS.Timeout | undefined
  #polling = false

  private constructor(sql: Sql, options: EventFeedOptions) {
    this.#sql = sql
    this.#log = options.log
  }

  /** Starts listening (on PostgreSQL, a connection of its own; throws when it cannot be opened). */
  static async open(sql: Sql, options: EventFeedOptions = {}): Promise<EventFeed> {
    const feed = new EventFeed(sql, options)
    feed.#notices = await listenForTaskEvents(sql, {
      onTask: (taskId, seq) => feed.#wake(taskId, seq),
      onResume: () => feed.#wakeAll(),
      onError: (err) => feed.#log?.warn({ err }, 'event streams: the listening connection failed; reopening it'),
    })
    feed.#timer = setInterval(() => void feed.#poll(), options.safetyPollMs ?? 5_000)
    feed.#timer.unref()
    return feed
  }

  follow(taskId: string): Follower {
    const follower = new Follower(taskId, (f) => this.#leave(f))
    let set = this.#followers.get(taskId)
    if (!set) this.#followers.set(taskId, (set = new Set()))
    set.add(follower)
    return follower
  }

  /** Streams following a task now, in all. */
  get following(): number {
    let n = 0
    for (const set of this.#followers.values()) n += set.size
    return n
  }

  async close(): Promise<void> {
    clearInterval(this.#timer)
    await this.#notices?.close()
  }

  #leave(follower: Follower): void {
    const set = this.#followers.get(follower.taskId)
    if (!set?.delete(follower)) return
    if (set.size === 0) this.#followers.delete(follower.taskId)
  }

  #wake(taskId: string, seq: number): void {
    for (const f of this.#followers.get(taskId) ?? []) f.wake(seq)
  }

  #wakeAll(): void {
    for (const set of this.#followers.values()) for (const f of set) f.wake()
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#followers.size === 0) return
    this.#polling = true
    try {
      const ids = [...this.#followers.keys()]
      for (let i = 0; i < ids.length; i += POLL_CHUNK) {
        const chunk = ids.slice(i, i + POLL_CHUNK)
        const { rows } = await this.#sql.query<{ task_id: string; event_seq: string | number; final: boolean }>(
          'select task_id, event_seq, status = any($2::text[]) as final from tasks where task_id = any($1::text[])',
          [chunk, [...FINAL_STATUSES]],
        )
        const found = new Map(rows.map((r) => [r.task_id, { seq: Number(r.event_seq), final: r.final }]))
        for (const id of chunk) {
          const task = found.get(id)
          for (const f of this.#followers.get(id) ?? []) {
            if (f.waiting && (task === undefined || task.final || task.seq > f.seq)) f.wake()
          }
        }
      }
    } catch (err) {
      this.#log?.warn({ err }, 'event streams: the safety poll failed')
    } finally {
      this.#polling = false
    }
  }
}
