/**
 * What the orchestrator's health route reports: each dependency asked just now, in parallel, each
 * within its own short time limit, so the route answers within a second whatever hangs.
 *
 * ```ts
 * await checkDependencies(deps)
 * // { database: { status: 'up', latency_ms: 1.2 }, job_queue: { status: 'up', latency_ms: 0 },
 * //   reflex: { status: 'up', latency_ms: 0.3 }, redis: { status: 'disabled', latency_ms: 0 } }
 * ```
 *
 * The database answers `select 1` (on PGlite, a probe that runs late behind this process's own
 * statements reports the database up and `busy`: it waited for them, it did not find an outage);
 * Redis answers PING (through its connection's circuit, so a
 * Redis known to be down is reported at once); the reflex layer (the in-process detector the
 * orchestrator screens goals with) must redact a known address; the job queue is up while this
 * process's pg-boss runs. A check that fails or runs past its limit is `down` with a short reason
 * that shows nothing of the dependency's own error (the route is public).
 */
import type { RedisConnection } from '../stores/redis-client.js'
import type { Sql } from '../stores/sql.js'

/** Longest a single check may take; the checks run at once, so the route answers within about this. */
export const CHECK_TIMEOUT_MS = 500

export interface DependencyCheck {
  status: 'up' | 'down' | 'disabled'
  /** How long the check took, in milliseconds (the time limit when it ran out). */
  latency_ms: number
  /** Why it is down: `timed out after 500 ms` or `check failed`. */
  error?: string
  /**
   * Up, but its probe ran past the limit queued behind this process's own statements on an
   * embedded database (PGlite runs one statement at a time) that are still moving: busy, not down.
   */
  busy?: true
}

export interface CheckedDeps {
  sql: Sql
  queueRunning: () => boolean
  redis?: RedisConnection
  limitsRedis?: RedisConnection
  reflexCheck: () => Promise<void> | void
  /** Qdrant's own health answer, when QDRANT_URL is set. */
  qdrant?: () => Promise<'up' | 'down'>
}

export interface DependencyChecks {
  database: DependencyCheck
  job_queue: DependencyCheck
  reflex: DependencyCheck
  redis: DependencyCheck
  rate_limit_redis?: DependencyCheck
  qdrant?: DependencyCheck
}

export async function checkDependencies(deps: CheckedDeps): Promise<DependencyChecks> {
  const disabled: DependencyCheck = { status: 'disabled', latency_ms: 0 }
  const [database, job_queue, reflex, redis, limits, qdrant] = await Promise.all([
    checkDatabase(deps.sql),
    timed(() => {
      if (!deps.queueRunning()) throw new Error('the job queue is not running')
    }),
    timed(deps.reflexCheck),
    deps.redis ? timed(() => ping(deps.redis!)) : disabled,
    deps.limitsRedis ? timed(() => ping(deps.limitsRedis!)) : undefined,
    deps.qdrant ? timed(() => answersUp(deps.qdrant!)) : undefined,
  ])
  return {
    database,
    job_queue,
    reflex,
    redis,
    ...(limits !== undefined && { rate_limit_redis: limits }),
    ...(qdrant !== undefined && { qdrant }),
  }
}

export function checkDatabase(sql: Sql): Promise<DependencyCheck> {
  // Read before the probe itself joins the queue.
  const queued = sql.busy?.() ?? false
  const busy: DependencyCheck = { status: 'up', latency_ms: CHECK_TIMEOUT_MS, busy: true }
  return timed(() => sql.query('select 1'), queued ? busy : undefined)
}

async function answersUp(check: () => Promise<'up' | 'down'>): Promise<void> {
  if ((await check()) !== 'up') throw new Error('down')
}

function ping(redis: RedisConnection): Promise<unknown> {
  return redis.run((client) => client.ping())
}

/**
 * Runs `check` against the clock: up when it returns in time, down when it throws, and when it
 * runs late `whenLate` if given, else down.
 */
async function timed(check: () => unknown, whenLate?: DependencyCheck): Promise<DependencyCheck> {
  const started = performance.now()
  const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<DependencyCheck>((resolve) => {
    timer = setTimeout(
      () => resolve(whenLate ?? { status: 'down', latency_ms: CHECK_TIMEOUT_MS, error: `timed out after ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    )
  })
  const done = (async (): Promise<DependencyCheck> => {
    try {
      await check()
      return { status: 'up', latency_ms: elapsed() }
    } catch {
      return { status: 'down', latency_ms: elapsed(), error: 'check failed' }
    }
  })()
  try {
    return await Promise.race([done, late])
  } finally {
    clearTimeout(timer)
  }
}
