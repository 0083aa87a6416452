/**
 * A connection to Redis for the shared cache tier and the global rate-limit buckets (one for both,
 * or one each when RATE_LIMIT_REDIS_URL names a Redis of their own), with a circuit so that a dead
 * or hung Redis costs the hot path no latency.
 *
 * ```ts
 * const redis = await connectRedis(process.env.REDIS_URL!, { log })
 * const cache = new RedisCacheStore(redis)
 * redis.health() // { redis: 'up' }
 * await redis.close()
 * ```
 *
 * ioredis is imported lazily (type imports are erased), so the embedded mode with no `REDIS_URL`
 * never loads it.
 *
 * Failure handling, in order of cost on the hot path:
 * - the circuit is open (a recent failure) or the socket is not ready: `run` throws
 *   `REDIS_ERR_UNAVAILABLE` at once, without I/O;
 * - Redis is gone (connection refused or reset): ioredis fails the command at once, because the
 *   offline queue is off (queued commands would otherwise wait for a reconnect);
 * - Redis hangs: `commandTimeout` (default 100 ms) fails the command.
 * Any of the last two opens the circuit; a background PING after a back-off (250 ms doubling to
 * 5 s) or a fresh `ready` from ioredis's own reconnect closes it again.
 */
import type { Redis, RedisOptions } from 'ioredis'

/** pino's shape, so the composition root can pass its logger; the default logs nothing. */
export interface Logger {
  warn(obj: object, msg: string): void
  info(obj: object, msg: string): void
}

const silent: Logger = { warn() {}, info() {} }

export interface RedisConnectOptions {
  /** Bound on every command, in ms. Default 100: a cache that answers slower than that is no cache. */
  commandTimeoutMs?: number
  /** Bound on establishing the socket, in ms (default 1000). */
  connectTimeoutMs?: number
  /** Wait up to `connectTimeoutMs` for the first `ready` (default true); Redis down is never an error. */
  waitForReady?: boolean
  /** First circuit back-off after a failure, in ms (default 250); doubles up to `maxBackoffMs`. */
  backoffMs?: number
  /** Longest circuit back-off and reconnect delay, in ms (default 5000). */
  maxBackoffMs?: number
  /** Shown by `CLIENT LIST`. */
  connectionName?: string
  log?: Logger
}

export interface RedisHealth {
  redis: 'up' | 'down' | 'disabled'
  last_error?: string
}

export const REDIS_ERRORS = { unavailable: 'REDIS_ERR_UNAVAILABLE' } as const

/** Redis could not be asked (circuit open, not connected, timed out, connection lost). */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError'
  readonly code = REDIS_ERRORS.unavailable
}

/** A Lua script registered with `defineCommand`: EVALSHA, falling back to EVAL on NOSCRIPT. */
export type RedisScript = (...keysThenArgs: (string | number)[]) => Promise<unknown>

export class RedisConnection {
  readonly client: Redis
  readonly #log: Logger
  readonly #backoffMs: number
  readonly #maxBackoffMs: number
  #circuitOpen = false
  #nextBackoffMs: number
  #probe: NodeJS.Timeout | undefined
  #lastError: string | undefined
  #closed = false
  #wasUp = false
  readonly #recoverListeners = new Set<() => void>()

  constructor(client: Redis, opts: RedisConnectOptions = {}) {
    this.client = client
    this.#log = opts.log ?? silent
    this.#backoffMs = opts.backoffMs ?? 250
    this.#maxBackoffMs = opts.maxBackoffMs ?? 5000
    this.#nextBackoffMs = this.#backoffMs
    // Without an 'error' listener ioredis's connection errors would crash the process.
    client.on('error', (err: Error) => this.#noteError(err))
    client.on('ready', () => this.#recovered())
    client.on('close', () => this.#noteDown())
  }

  /** True when a command would be sent now: connected, and the circuit closed. */
  get available(): boolean {
    return !this.#closed && !this.#circuitOpen && this.client.status === 'ready'
  }

  /** Runs `op` unless Redis is known to be unreachable; transport failures open the circuit. */
  async run<T>(op: (client: Redis) => Promise<T>): Promise<T> {
    if (!this.available) {
      throw new RedisUnavailableError(`redis unavailable (${this.#lastError ?? this.client.status})`)
    }
    try {
      return await op(this.client)
    } catch (err) {
      // The server answered with an error (WRONGTYPE, a script bug): it is up, the caller is wrong.
      if (err instanceof Error && err.name === 'ReplyError') throw err
      this.#trip(err)
      throw new RedisUnavailableError(`redis command failed: ${message(err)}`, { cause: err })
    }
  }

  /** Registers a Lua script once per client and returns a caller for it. */
  script(name: string, numberOfKeys: number, lua: string): RedisScript {
    if (!(name in this.client)) this.client.defineCommand(name, { numberOfKeys, lua })
    // defineCommand adds a method named `name`, which ioredis's types cannot know about.
    const fn = (this.client as unknown as Record<string, RedisScript | undefined>)[name]
    if (fn === undefined) throw new Error(`defineCommand did not add ${name}`)
    return fn.bind(this.client)
  }

  /** Called each time Redis becomes reachable again; returns the unsubscribe function. */
  onRecover(listener: () => void): () => void {
    this.#recoverListeners.add(listener)
    return () => this.#recoverListeners.delete(listener)
  }

  health(): RedisHealth {
    if (this.available) return { redis: 'up' }
    return this.#lastError === undefined ? { redis: 'down' } : { redis: 'down', last_error: this.#lastError }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    clearTimeout(this.#probe)
    this.#recoverListeners.clear()
    if (this.client.status === 'ready') {
      try {
        await this.client.quit()
        return
      } catch {
        // fall through: QUIT can time out on a hung server; the socket goes anyway
      }
    }
    this.client.disconnect()
  }

  #trip(err: unknown): void {
    this.#noteError(err)
    if (this.#circuitOpen || this.#closed) return
    this.#circuitOpen = true
    this.#scheduleProbe()
  }

  #scheduleProbe(): void {
    clearTimeout(this.#probe)
    const delay = this.#nextBackoffMs
    this.#nextBackoffMs = Math.min(this.#nextBackoffMs * 2, this.#maxBackoffMs)
    this.#probe = setTimeout(() => void this.#probeOnce(), delay)
    // A pending probe must not keep a finished process (or test) alive.
    this.#probe.unref()
  }

  async #probeOnce(): Promise<void> {
    if (this.#closed) return
    try {
      if (this.client.status !== 'ready') throw new Error(`redis is ${this.client.status}`)
      await this.client.ping()
      this.#recovered()
    } catch (err) {
      this.#noteError(err)
      this.#scheduleProbe()
    }
  }

  #recovered(): void {
    if (this.#closed) return
    clearTimeout(this.#probe)
    this.#circuitOpen = false
    this.#nextBackoffMs = this.#backoffMs
    if (this.client.status !== 'ready') return
    if (!this.#wasUp) this.#log.info({ redis: 'up' }, 'redis reachable')
    this.#wasUp = true
    this.#lastError = undefined
    for (const listener of this.#recoverListeners) listener()
  }

  #noteError(err: unknown): void {
    this.#lastError = message(err)
    this.#noteDown()
  }

  #noteDown(): void {
    if (!this.#wasUp || this.#closed) return
    this.#wasUp = false
    this.#log.warn({ redis: 'down', err: this.#lastError }, 'redis unreachable: serving from the in-process tier')
  }
}

/**
 * Connects to `url` (redis:// or rediss://). Never throws for an unreachable server: the connection
 * starts `down` and ioredis keeps reconnecting in the background.
 */
export async function connectRedis(url: string, opts: RedisConnectOptions = {}): Promise<RedisConnection> {
  const { Redis } = await import('ioredis')
  const maxBackoffMs = opts.maxBackoffMs ?? 5000
  const connectTimeout = opts.connectTimeoutMs ?? 1000
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout,
    commandTimeout: opts.commandTimeoutMs ?? 100,
    // Fail commands at once while disconnected instead of queueing them until a reconnect.
    enableOfflineQueue: false,
    // A command lost with its connection is failed, not re-sent later: the caller has moved on.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Reconnect forever, 100 ms doubling to maxBackoffMs.
    retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times, 10), maxBackoffMs),
    ...(opts.connectionName === undefined ? {} : { connectionName: opts.connectionName }),
  }
  const client = new Redis(url, options)
  const connection = new RedisConnection(client, opts)
  const ready = client.connect().then(
    () => undefined,
    () => undefined, // recorded by the 'error' listener; retryStrategy takes it from here
  )
  if (opts.waitForReady ?? true) {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, connectTimeout)
    })
    await Promise.race([ready, timeout])
    clearTimeout(timer)
    if (!connection.available) {
      opts.log?.warn(
        { redis: 'down', err: connection.health().last_error },
        'redis not reachable at start: serving from the in-process tier',
      )
    }
  }
  return connection
}

/**
 * A `warn` that speaks at most once per `intervalMs`, for failures that do not open the circuit
 * (an out-of-memory Redis refusing writes answers every call, each with an error).
 */
export function warnEvery(log: Logger | undefined, intervalMs = 10_000): (obj: object, msg: string) => void {
  let last = Number.NEGATIVE_INFINITY
  return (obj, msg) => {
    const now = Date.now()
    if (log === undefined || now - last < intervalMs) return
    last = now
    log.warn(obj, msg)
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
