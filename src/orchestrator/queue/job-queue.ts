/**
 * The job queue: pg-boss on the service's own database, PGlite or PostgreSQL.
 *
 * ```ts
 * const queue = await JobQueue.start({ sql })
 * await store.create(task, { enqueue: (tx) => queue.send('task.run', { task_id: task.task_id }, { tx }) })
 * await queue.work<{ task_id: string }>('task.run', async (job) => runTask(job.data.task_id, job.signal))
 * await queue.stop()
 * ```
 *
 * `send(…, { tx })` runs pg-boss's insert on the caller's transaction (pg-boss's per-call `db`
 * executor), so a job exists exactly when the transaction that asked for it commits.
 *
 * Delivery is at least once: a handler that throws is retried with backoff up to the queue's
 * retryLimit, and a job still active after expireInSeconds (its worker hung or died, so its lease
 * ran out) is failed by pg-boss's supervisor and retried like any other failure. Handlers must
 * therefore be idempotent — the task store's conditional updates are what makes them so.
 *
 * Deliberately left out: schedules (cron), dead-letter queues, flows, and job results; nothing in
 * the orchestrator reads a job's output, the task store holds every outcome.
 */
import { randomUUID } from 'node:crypto'
import { type ConstructorOptions, type Db, fromPglite, PgBoss } from 'pg-boss'
import type { Sql } from '../../stores/sql.js'

export interface QueueDefinition {
  name: string
  /** Retries after the first attempt. */
  retryLimit: number
  retryDelaySeconds: number
  /** Double the delay each retry. */
  retryBackoff: boolean
  /** The lease: an attempt still running after this long is failed and retried. */
  expireInSeconds: number
  /**
   * Wake one local worker per job instead of all of them. With `listenNotify` every job NOTIFYs and
   * pg-boss wakes every worker of the queue in every process: with 16 workers, one fetch finds the
   * job and 15 find nothing. Here the queue sends no NOTIFY; a job sent by this process (outside a
   * transaction) wakes one idle worker of this process, or, when all are busy, the next one to finish
   * looks again at once. Jobs from other processes, sends in a transaction and retries are found by
   * polling (`pollingIntervalSeconds`). For queues whose jobs are sent where they are worked.
   */
  wakeOne?: boolean
}

/**
 * A task attempt plans and launches steps; a step attempt is one arm call. Leases are generous
 * because a lease that runs out while the work is still going starts a second attempt beside it.
 */
export const DEFAULT_QUEUES: readonly QueueDefinition[] = [
  { name: 'task.run', retryLimit: 3, retryDelaySeconds: 2, retryBackoff: true, expireInSeconds: 15 * 60 },
  { name: 'step.run', retryLimit: 3, retryDelaySeconds: 1, retryBackoff: true, expireInSeconds: 10 * 60 },
]

export interface JobQueueOptions {
  /** The database to share; pg-boss follows `sql.jobBackend`. */
  sql: Sql
  /** Schema of pg-boss's own tables. Default `pgboss`. */
  schema?: string
  queues?: readonly QueueDefinition[]
  /** How often expired leases are looked for. Default 30 s (pg-boss's minimum is 1). */
  superviseIntervalSeconds?: number
  /** Idle workers poll this often. Default 1 s (pg-boss's minimum is 0.5). */
  pollingIntervalSeconds?: number
  /**
   * Wake idle workers with LISTEN/NOTIFY the moment a job commits instead of on their next poll.
   * Default true. Costs one held connection on PostgreSQL; on PGlite it is in-process.
   */
  listenNotify?: boolean
  /** PostgreSQL pool size for pg-boss's own connections. Default 10. */
  poolSize?: number
  /** Errors pg-boss reports from its background work (never thrown at a caller). */
  onError?: (error: Error) => void
}

export interface SendOptions {
  /** Insert inside this transaction: the job exists only if it commits. */
  tx?: Sql
  startAfterSeconds?: number
  /** Higher runs first. */
  priority?: number
}

export interface QueueJob<T> {
  id: string
  queue: string
  data: T
  /** 0 on the first attempt. */
  retryCount: number
  /** Aborted by pg-boss when the lease expires or the queue stops without waiting. */
  signal: AbortSignal
}

export interface WorkOptions {
  /** Jobs of this queue this process runs at once. Default 1. */
  concurrency?: number
}

/** pg-boss's per-call executor over one of our transactions. */
function executorFor(tx: Sql): Db {
  return { executeSql: (text, values) => tx.query(text, values) }
}

export class JobQueue {
  /** Per wake-one queue, this process's workers of it. */
  private readonly local = new Map<string, LocalWorkers>()
  /** work() ids → the pg-boss worker ids behind them (a wake-one queue has one per slot). */
  private readonly works = new Map<string, string[]>()

  private constructor(
    private readonly boss: PgBoss,
    private readonly queueNames: ReadonlySet<string>,
    private readonly pollingIntervalSeconds: number,
    private readonly wakeOneQueues: ReadonlySet<string>,
  ) {}

  static async start(options: JobQueueOptions): Promise<JobQueue> {
    const { sql } = options
    const notify = options.listenNotify ?? true
    const common: ConstructorOptions = {
      useListenNotify: notify,
      schema: options.schema ?? 'pgboss',
      superviseIntervalSeconds: options.superviseIntervalSeconds ?? 30,
      // The supervisor looks at each queue at most this often; lease expiry is only as prompt as both.
      monitorIntervalSeconds: options.superviseIntervalSeconds ?? 30,
      schedule: false,
    }
    const backend = sql.jobBackend
    const boss =
      backend.kind === 'pglite'
        ? // One PGlite, one connection: pg-boss must go through the same instance, never its own pool.
          new PgBoss({ ...common, db: fromPglite(backend.pglite), backend: 'pglite' })
        : new PgBoss({ ...common, connectionString: backend.connectionString, max: options.poolSize ?? 10 })
    boss.on('error', (error: Error) => options.onError?.(error))
    await boss.start()

    const queues = options.queues ?? DEFAULT_QUEUES
    try {
      for (const q of queues) {
        const settings = {
          retryLimit: q.retryLimit,
          retryDelay: q.retryDelaySeconds,
          retryBackoff: q.retryBackoff,
          expireInSeconds: q.expireInSeconds,
          notify: notify && q.wakeOne !== true,
        }
        await boss.createQueue(q.name, settings) // a no-op when it exists…
        await boss.updateQueue(q.name, settings) // …so the settings are applied separately
        // createQueue/updateQueue drop the queue from pg-boss's in-memory cache, and a send that misses
        // the cache looks the queue up on pg-boss's own connection. Inside a PGlite transaction that
        // connection is the one the transaction holds, and the send would wait for itself. Warm it now.
        await boss.findJobs(q.name, { id: randomUUID() })
      }
    } catch (err) {
      await boss.stop({ graceful: false, close: true })
      throw err
    }
    return new JobQueue(
      boss,
      new Set(queues.map((q) => q.name)),
      options.pollingIntervalSeconds ?? 1,
      new Set(queues.filter((q) => q.wakeOne === true).map((q) => q.name)),
    )
  }

  /**
   * Enqueues one job; with `tx`, inside that transaction. Every send is a new job: the queues use
   * pg-boss's standard policy, which suppresses nothing, and callers rely on that (a step refused as
   * busy is sent again while its first job may still be active).
   */
  async send(queue: string, data: object, options: SendOptions = {}): Promise<string | null> {
    this.assertQueue(queue)
    const id = await this.boss.send(queue, data, {
      ...(options.tx && { db: executorFor(options.tx) }),
      ...(options.startAfterSeconds !== undefined && { startAfter: options.startAfterSeconds }),
      ...(options.priority !== undefined && { priority: options.priority }),
    })
    // Committed (no tx) and due now: one local worker goes to fetch it. In a transaction the job
    // does not exist yet; a poll finds it.
    if (id !== null && !options.tx && !options.startAfterSeconds) this.local.get(queue)?.wake()
    return id
  }

  /**
   * Enqueues several jobs of one queue in one statement (pg-boss `insert`); with `tx`, inside that
   * transaction. No singleton keys: every job is inserted. One NOTIFY wakes the workers for all.
   */
  async sendMany(
    queue: string,
    jobs: ReadonlyArray<{ data: object; startAfterSeconds?: number; priority?: number }>,
    options: { tx?: Sql } = {},
  ): Promise<void> {
    this.assertQueue(queue)
    if (jobs.length === 0) return
    await this.boss.insert(
      queue,
      jobs.map((j) => ({
        data: j.data,
        // A number of seconds from now, as send's startAfter.
        ...(j.startAfterSeconds !== undefined && { startAfter: j.startAfterSeconds }),
        ...(j.priority !== undefined && { priority: j.priority }),
      })),
      options.tx ? { db: executorFor(options.tx) } : {},
    )
  }

  /**
   * Runs `handler` for each job, `concurrency` at a time. Resolving completes the job; throwing fails
   * the attempt and pg-boss retries it while retries remain.
   */
  async work<T extends object>(queue: string, handler: (job: QueueJob<T>) => Promise<void>, options: WorkOptions = {}): Promise<string> {
    this.assertQueue(queue)
    const concurrency = options.concurrency ?? 1
    const settings = {
      batchSize: 1,
      pollingIntervalSeconds: this.pollingIntervalSeconds,
      // pg-boss relaxes polling to a 30 s backstop while NOTIFY is on, but only new jobs NOTIFY: a
      // retry or an expired lease would wait out that backstop. Keep polling at the base rate.
      notifyPollingIntervalSeconds: this.pollingIntervalSeconds,
    }
    const run = async (jobs: Array<{ id: string; name: string; data: T; retryCount: number; signal: AbortSignal }>) => {
      for (const job of jobs) {
        await handler({ id: job.id, queue: job.name, data: job.data, retryCount: job.retryCount, signal: job.signal })
      }
    }
    if (!this.wakeOneQueues.has(queue)) {
      const id = await this.boss.work<T>(queue, { ...settings, localConcurrency: concurrency }, run)
      this.works.set(id, [id])
      return id
    }
    // One pg-boss worker per slot, each with its own id, so one of them can be woken alone.
    let workers = this.local.get(queue)
    if (!workers) this.local.set(queue, (workers = new LocalWorkers((id) => this.boss.notifyWorker(id))))
    const ids: string[] = []
    for (let i = 0; i < concurrency; i++) {
      const slot = workers.add()
      slot.id = await this.boss.work<T>(queue, { ...settings, localConcurrency: 1 }, (jobs) => workers.running(slot, () => run(jobs)))
      ids.push(slot.id)
    }
    this.works.set(ids[0]!, ids)
    return ids[0]!
  }

  /** Stops the workers a `work` call started (by the id it returned); running handlers finish. */
  async offWork(queue: string, workId: string, options: { wait?: boolean } = {}): Promise<void> {
    const ids = this.works.get(workId) ?? [workId]
    this.works.delete(workId)
    this.local.get(queue)?.remove(ids)
    for (const id of ids) await this.boss.offWork(queue, { id, wait: options.wait ?? true })
  }

  /** Stops taking work. By default waits up to `timeoutMs` for running handlers, then aborts them. */
  async stop(options: { graceful?: boolean; timeoutMs?: number } = {}): Promise<void> {
    await this.boss.stop({ graceful: options.graceful ?? true, timeout: options.timeoutMs ?? 30_000, close: true })
  }

  /** pg-boss itself, for what this wrapper does not cover (stats in /metrics, tests). */
  get pgBoss(): PgBoss {
    return this.boss
  }

  private assertQueue(queue: string): void {
    // Only queues created (and cache-warmed) at start may be used; see start().
    if (!this.queueNames.has(queue)) throw new Error(`unknown queue ${queue}; declare it in JobQueueOptions.queues`)
  }
}

interface Slot {
  id: string
  busy: boolean
  /** When it was last woken (ms); a wake it has not acted on yet makes it no candidate. */
  wokenAt: number
}

/** A wake has this long to turn into a fetch before its worker counts as idle again. */
const WAKE_PENDING_MS = 200

/**
 * The workers of one wake-one queue in this process: which are busy, which were just woken, and how
 * many wakes found nobody idle (the next workers to finish each look again at once).
 */
class LocalWorkers {
  private readonly slots: Slot[] = []
  private missed = 0

  constructor(private readonly notify: (workerId: string) => void) {}

  add(): Slot {
    const slot: Slot = { id: '', busy: false, wokenAt: 0 }
    this.slots.push(slot)
    return slot
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const i = this.slots.findIndex((s) => s.id === id)
      if (i >= 0) this.slots.splice(i, 1)
    }
  }

  wake(): void {
    const now = Date.now()
    const idle = this.slots.find((s) => s.id !== '' && !s.busy && now - s.wokenAt > WAKE_PENDING_MS)
    if (!idle) {
      this.missed = Math.min(this.missed + 1, this.slots.length)
      return
    }
    idle.wokenAt = now
    this.notify(idle.id)
  }

  async running(slot: Slot, handle: () => Promise<void>): Promise<void> {
    slot.busy = true
    slot.wokenAt = 0
    try {
      await handle()
    } finally {
      slot.busy = false
      // A job sent while every worker was busy: this one fetches again as soon as it returns.
      if (this.missed > 0) {
        this.missed--
        this.notify(slot.id)
      }
    }
  }
}
