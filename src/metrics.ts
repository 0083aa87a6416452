/**
 * Prometheus metrics (prom-client) for `GET /api/v1/metrics`: HTTP, task, step, queue, reflex,
 * cache and LLM series. One registry per service; counters the addon and the cache tiers keep are
 * read at scrape time. The orchestrator, the reflex layer and every arm service serve their own
 * (docs/observability.md).
 */

import type { CacheTier, Detector } from '@ganglion/reflex'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { HttpApp, Reply } from './http/app.js'
import type { TierStats } from './stores/cache-store.js'

export interface QueueDepth {
  queue: string
  queued: number
  active: number
}

/** The cache as the counters read it: each tier's own (`memory`, then `redis` when configured). */
export interface CacheTiers {
  stats(): Promise<{ tiers: TierStats[] }>
}

export interface MetricsSources {
  detector: Detector
  /** The in-process cache tier; unset in a service without a cache (an arm). */
  cacheTier?: CacheTier
  /** Lookups and evictions per tier, read at scrape time; unset: no cache series. */
  cache?: CacheTiers
  /** Job counts per queue, read at scrape time. */
  queueDepths?: () => Promise<QueueDepth[]>
}

const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]

export class Metrics {
  readonly registry = new Registry()
  private readonly httpRequests: Counter<'service' | 'method' | 'route' | 'status'>
  private readonly httpDuration: Histogram<'service' | 'method' | 'route'>
  private readonly tasksCreated: Counter<'status'>
  private readonly tasksFinished: Counter<'status'>
  private readonly taskDuration: Histogram<'status'>
  private readonly stepsStarted: Counter<'arm'>
  private readonly stepsFinished: Counter<'arm' | 'status'>
  private readonly stepDuration: Histogram<'arm'>
  private readonly dispatch: Histogram
  private readonly llmTokens: Counter<'provider' | 'kind'>

  constructor(sources: MetricsSources) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry, prefix: 'ganglion_' })
    this.httpRequests = new Counter({
      name: 'ganglion_http_requests_total',
      help: 'HTTP responses sent',
      labelNames: ['service', 'method', 'route', 'status'],
      registers,
    })
    this.httpDuration = new Histogram({
      name: 'ganglion_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['service', 'method', 'route'],
      buckets: SECONDS,
      registers,
    })
    this.tasksCreated = new Counter({
      name: 'ganglion_tasks_created_total',
      help: 'Tasks accepted, by the status they were created in',
      labelNames: ['status'],
      registers,
    })
    this.tasksFinished = new Counter({
      name: 'ganglion_tasks_finished_total',
      help: 'Tasks that reached a final state',
      labelNames: ['status'],
      registers,
    })
    this.taskDuration = new Histogram({
      name: 'ganglion_task_duration_seconds',
      help: 'Time from creation to a final state',
      labelNames: ['status'],
      buckets: SECONDS,
      registers,
    })
    this.stepsStarted = new Counter({ name: 'ganglion_steps_started_total', help: 'Step executions begun', labelNames: ['arm'], registers })
    this.stepsFinished = new Counter({
      name: 'ganglion_steps_finished_total',
      help: 'Step executions ended',
      labelNames: ['arm', 'status'],
      registers,
    })
    this.stepDuration = new Histogram({
      name: 'ganglion_step_duration_seconds',
      help: 'Time one step execution took',
      labelNames: ['arm'],
      buckets: SECONDS,
      registers,
    })
    this.dispatch = new Histogram({
      name: 'ganglion_step_dispatch_seconds',
      help: 'Time from a step becoming ready to its start (queue overhead)',
      buckets: SECONDS,
      registers,
    })
    this.llmTokens = new Counter({
      name: 'ganglion_llm_tokens_total',
      help: 'Model tokens used',
      labelNames: ['provider', 'kind'],
      registers,
    })

    const { detector, cacheTier } = sources
    const reflex = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read())
        },
      })
    reflex('ganglion_reflex_checks', 'Reflex checks run by this process', () => detector.stats().checks)
    reflex('ganglion_reflex_blocked', 'Reflex checks that blocked', () => detector.stats().blocked)
    reflex('ganglion_reflex_pii_detected', 'Reflex checks that found personal data', () => detector.stats().piiDetected)
    reflex('ganglion_reflex_injection_detected', 'Reflex checks that found injection patterns', () => detector.stats().injectionDetected)
    if (cacheTier !== undefined)
      reflex('ganglion_reflex_cache_entries', 'Entries in the in-process cache tier', () => cacheTier.stats().entries)
    if (sources.cache !== undefined) cacheCounters(sources.cache, registers)

    const depths = sources.queueDepths
    if (depths) {
      new Gauge({
        name: 'ganglion_queue_jobs',
        help: 'Jobs per queue and state',
        labelNames: ['queue', 'state'],
        registers,
        async collect() {
          for (const d of await depths()) {
            this.set({ queue: d.queue, state: 'queued' }, d.queued)
            this.set({ queue: d.queue, state: 'active' }, d.active)
          }
        },
      })
    }
  }

  /** For `createHttpApp({ onResponse })`. */
  httpObserver(service: string) {
    return (method: string, route: string, status: number, seconds: number): void => {
      this.httpRequests.inc({ service, method, route, status: String(status) })
      this.httpDuration.observe({ service, method, route }, seconds)
    }
  }

  taskCreated(status: string): void {
    this.tasksCreated.inc({ status })
  }

  // The runner's RunnerMetrics.
  stepStarted(arm: string): void {
    this.stepsStarted.inc({ arm })
  }

  stepFinished(arm: string, status: string, seconds: number): void {
    this.stepsFinished.inc({ arm, status })
    this.stepDuration.observe({ arm }, seconds)
  }

  taskFinished(status: string, seconds: number): void {
    this.tasksFinished.inc({ status })
    this.taskDuration.observe({ status }, seconds)
  }

  dispatchLatency(seconds: number): void {
    this.dispatch.observe(seconds)
  }

  /** `model` is `provider/model` as provenance reports it; the provider is the label. */
  modelTokens(model: string | null, prompt: number, completion: number): void {
    const provider = model?.split('/')[0] || 'unknown'
    this.llmTokens.inc({ provider, kind: 'prompt' }, prompt)
    this.llmTokens.inc({ provider, kind: 'completion' }, completion)
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() }
  }
}

/**
 * `ganglion_cache_requests_total{tier,result}` and `ganglion_cache_evictions_total{tier}`: the
 * tiers' own running totals, copied at each scrape (they only grow, so they are counters). A
 * lookup the memory tier misses goes on to Redis, so `redis` counts what `memory` missed.
 */
function cacheCounters(cache: CacheTiers, registers: Registry[]): void {
  const tiers = (): Promise<TierStats[]> =>
    cache.stats().then(
      (s) => s.tiers,
      () => [],
    )
  new Counter({
    name: 'ganglion_cache_requests_total',
    help: 'Cache lookups per tier, by result (hit, miss)',
    labelNames: ['tier', 'result'],
    registers,
    async collect() {
      const all = await tiers()
      this.reset()
      for (const t of all) {
        this.inc({ tier: t.tier, result: 'hit' }, t.hits)
        this.inc({ tier: t.tier, result: 'miss' }, t.misses)
      }
    },
  })
  new Counter({
    name: 'ganglion_cache_evictions_total',
    help: 'Entries a cache tier dropped to stay within its bounds',
    labelNames: ['tier'],
    registers,
    async collect() {
      const all = await tiers()
      this.reset()
      for (const t of all) this.inc({ tier: t.tier }, t.evictions)
    },
  })
}

/** `GET /api/v1/metrics` and `GET /metrics` on `app`, with the permission the orchestrator's need. */
export function registerMetricsRoutes(app: HttpApp, metrics: Metrics): void {
  const route = async (): Promise<Reply> => {
    const { contentType, body } = await metrics.text()
    return { headers: { 'content-type': contentType }, raw: body }
  }
  app.route('GET', '/api/v1/metrics', route, { permission: 'metrics' })
  app.route('GET', '/metrics', route, { permission: 'metrics' })
}
