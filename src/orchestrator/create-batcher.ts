/**
 * Group commit for task creation: concurrent submissions share one transaction.
 *
 * ```ts
 * const batcher = new CreateBatcher(store, (tx, tasks) => enqueueTasks(queue, tx, tasks))
 * const task = await batcher.create(newTask, { task_id, timeout_seconds })  // resolves after COMMIT
 * await batcher.drain()
 * ```
 *
 * A submission costs a transaction of ~4 statements whatever it holds (BEGIN, the task rows with
 * their events, one insert per job queue, COMMIT), so under load most of that cost is shared. No
 * timer: a batch leaves as soon as one of `maxInFlight` transactions is free, with whatever has
 * arrived meanwhile (at most `maxBatch`). Idle, a submission goes alone at once and waits for
 * nothing; busy, batches grow by themselves while the previous ones commit.
 *
 * Guarantees kept from the one-task path:
 * - A caller's promise resolves only after the transaction holding its task, its first event and
 *   its jobs committed: an acknowledged task is durable with its jobs; a crash before COMMIT
 *   rolls back the whole batch, and none of its callers has been answered.
 * - One bad row does not fail its neighbours: when a batch fails, each of its tasks is retried in
 *   a transaction of its own, so only the bad one is refused, with its own error.
 * - Idempotency keys are not batched (the caller sends keyed requests through `store.create`), so
 *   replays and conflicts behave exactly as before.
 */
import type { Sql } from '../stores/sql.js'
import type { Priority, StoredTask } from '../stores/task.js'
import type { NewTask, TaskStore } from '../stores/task-store.js'

/** What the jobs of a task need besides its row (its timeout, for the delayed job). */
export interface BatchJob {
  task_id: string
  tenant: string
  timeout_seconds: number
  /** Orders its jobs in the queue; default `medium`. */
  priority?: Priority
}

export type EnqueueBatch = (tx: Sql, jobs: readonly BatchJob[]) => Promise<void>

export interface CreateBatcherOptions {
  /** Most tasks in one transaction. Default 64. */
  maxBatch?: number
  /** Batches committing at once (each holds a pooled connection). Default 2. */
  maxInFlight?: number
}

interface Waiting {
  task: NewTask
  job: BatchJob
  resolve: (task: StoredTask) => void
  reject: (err: unknown) => void
}

export class CreateBatcher {
  private readonly waiting: Waiting[] = []
  private inFlight = 0
  private readonly idle = new Set<() => void>()
  private readonly maxBatch: number
  private readonly maxInFlight: number

  constructor(
    private readonly store: TaskStore,
    private readonly enqueue: EnqueueBatch,
    options: CreateBatcherOptions = {},
  ) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 64)
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 2)
  }

  /** Creates the task with its jobs; resolves once they are committed. */
  create(task: NewTask, job: BatchJob): Promise<StoredTask> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, job, resolve, reject })
      this.pump()
    })
  }

  /** Resolves when nothing is waiting or committing (for shutdown, before the database closes). */
  drain(): Promise<void> {
    if (this.inFlight === 0 && this.waiting.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idle.add(resolve))
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch)
      this.inFlight++
      void this.flush(batch).finally(() => {
        this.inFlight--
        this.pump()
        if (this.inFlight === 0 && this.waiting.length === 0) {
          for (const resolve of this.idle) resolve()
          this.idle.clear()
        }
      })
    }
  }

  private async flush(batch: Waiting[]): Promise<void> {
    let created: StoredTask[]
    try {
      created = await this.store.createBatch(
        batch.map((w) => w.task),
        (tx) =>
          this.enqueue(
            tx,
            batch.map((w) => w.job),
          ),
      )
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err)
        return
      }
      // Rolled back whole: find the bad row by giving each task a transaction of its own, one after
      // another in this batch's slot, so a failed batch never holds more than one pooled connection.
      for (const w of batch) await this.flush([w])
      return
    }
    for (const [i, w] of batch.entries()) w.resolve(created[i]!)
  }
}
