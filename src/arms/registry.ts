/**
 * Which arms the orchestrator can call: the six built-in ones (in-process or at `ARM_<NAME>_URL`,
 * built by the composition root) plus external arms registered at run time, kept in the `arms`
 * table so every orchestrator on the database sees them.
 *
 * ```ts
 * const registry = await ArmRegistry.open({ builtin: new Map([['executor', { endpoint, location: 'in-process' }]]), sql })
 * registry.get('executor')                                        // ArmEndpoint, sync (runner)
 * await registry.list(signal)                                     // capability, location, health of each
 * await registry.register({ name: 'translator', url: 'http://10.0.0.7:9000' }) // → ArmListing
 * ```
 *
 * Registration: the name must match ArmNamePattern and not be a built-in arm's (409 CONFLICT); the
 * URL must be http(s) and its host resolve to addresses registered arms may have (arm-address.ts:
 * public ones, and networks ARM_URL_ALLOW_PRIVATE names; 400 on `url`); the arm must answer `GET {url}/health` with 200 healthy or
 * degraded within 2 s, else 400 VALIDATION_ERROR on `url` saying what it got. A 400, not a 503:
 * the orchestrator is fine, the registrant named an arm that is not serving, and should fix that
 * and retry. Without `capability` in the request it is fetched from `{url}/capabilities` and must be
 * a valid ArmCapability (400 on `capability`). `endpoint` is always set to the URL. Registering a
 * name again replaces the URL and capability.
 *
 * The in-memory view is reloaded from the table every `reloadMs` (default 5 s), on a `get` miss
 * (at most once a second), and before `list`.
 */
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { HttpError } from '../http/errors.js'
import { compileSchema } from '../http/validate.js'
import type { Sql } from '../stores/sql.js'
import { trimEndOf } from '../text-scan.js'
import { type ArmAddressPolicy, armAddressPolicy, checkArmUrl } from './arm-address.js'
import { HttpArmClient } from './arm-client.js'
import { messageOf } from './arm-host.js'
import { ArmCapability, type ArmEndpoint, type ArmHealth, type ArmLookup, ArmNamePattern, BUILTIN_ARMS } from './contract.js'
import { untilAborted } from './until-aborted.js'

/** An endpoint the registry can also describe: in-process or HTTP. */
export interface ArmService extends ArmEndpoint {
  health(signal?: AbortSignal): Promise<ArmHealth>
  capabilities(signal?: AbortSignal): Promise<ArmCapability>
}

export interface BuiltinArmEntry {
  endpoint: ArmService
  /** `in-process`, or the arm's URL. */
  location: 'in-process' | string
}

export interface ArmListing {
  name: string
  builtin: boolean
  location: 'in-process' | string
  /** Null only for a built-in remote arm whose /capabilities could not be read. */
  capability: ArmCapability | null
  health: ArmHealth
  /** External arms only. */
  registered_at: string | null
  updated_at: string | null
}

/** POST /api/v1/arms/register. `capability.endpoint` may be left out: the URL is used. */
export const RegisterArmRequest = Type.Object(
  {
    name: ArmNamePattern,
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    capability: Type.Optional(Type.Object({ ...ArmCapability.properties, endpoint: Type.Optional(ArmCapability.properties.endpoint) })),
  },
  { additionalProperties: false },
)
export type RegisterArmRequest = Type.Static<typeof RegisterArmRequest>

export interface ArmRegistryOptions {
  builtin: ReadonlyMap<string, BuiltinArmEntry>
  /** Where external arms are kept; without it they live in this process only. */
  sql?: Sql
  /**
   * The addresses registered arms may have, checked at registration and at every connection
   * (arm-address.ts). Default: public addresses only.
   */
  addresses?: ArmAddressPolicy
  /** Default 5 s. */
  reloadMs?: number
  /** Each health (and capability) check. Default 2 s. */
  healthTimeoutMs?: number
  /**
   * How long one arm's health and capability answer `list` for everyone. Default 1 s: listing
   * at any rate costs each arm at most one probe a second, and concurrent lists share one.
   */
  probeReuseMs?: number
}

interface Probe {
  location: string
  at: number
  answer: Promise<{ health: ArmHealth; capability: ArmCapability | null }>
}

interface External {
  url: string
  capability: ArmCapability
  client: HttpArmClient
  registered_at: string
  updated_at: string
}

const parseRegister = compileSchema(RegisterArmRequest)
const isCapability = Compile(ArmCapability)
const MISS_RELOAD_MS = 1000

export class ArmRegistry implements ArmLookup {
  private external = new Map<string, External>()
  private loadedAt = 0
  private loading: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private probes = new Map<string, Probe>()
  private readonly addresses: ArmAddressPolicy

  constructor(private readonly opts: ArmRegistryOptions) {
    this.addresses = opts.addresses ?? armAddressPolicy()
  }

  /** Loads the registered arms and keeps reloading them until `close()`. */
  static async open(opts: ArmRegistryOptions): Promise<ArmRegistry> {
    const registry = new ArmRegistry(opts)
    if (opts.sql !== undefined) {
      await registry.reload()
      registry.timer = setInterval(() => void registry.reload().catch(() => {}), opts.reloadMs ?? 5000)
      registry.timer.unref()
    }
    return registry
  }

  get(name: string): ArmEndpoint | undefined {
    const found = this.opts.builtin.get(name)?.endpoint ?? this.external.get(name)?.client
    if (found === undefined && Date.now() - this.loadedAt > MISS_RELOAD_MS) void this.reload().catch(() => {})
    return found
  }

  /** The registered (external) arms as last loaded, sorted by name: what the planner may plan for. */
  registered(): Array<{ name: string; capability: ArmCapability }> {
    return [...this.external].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, e]) => ({ name, capability: e.capability }))
  }

  /**
   * Every arm, sorted by name; health checked in parallel, an arm that does not answer is
   * `unhealthy`. An arm's answer is reused for `probeReuseMs` (see there).
   */
  async list(signal?: AbortSignal): Promise<ArmListing[]> {
    await this.reload().catch(() => {}) // a database hiccup must not hide the built-in arms
    const builtins = [...this.opts.builtin].map(async ([name, entry]): Promise<ArmListing> => {
      const { health, capability } = await this.probe(name, entry.location, entry.endpoint, true, signal)
      return { name, builtin: true, location: entry.location, capability, health, registered_at: null, updated_at: null }
    })
    const externals = [...this.external].map(
      async ([name, e]): Promise<ArmListing> => ({
        name,
        builtin: false,
        location: e.url,
        capability: e.capability,
        health: (await this.probe(name, e.url, e.client, false, signal)).health,
        registered_at: e.registered_at,
        updated_at: e.updated_at,
      }),
    )
    const all = await Promise.all([...builtins, ...externals])
    return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  /** The arm's health (and capability when asked), shared by every list within `probeReuseMs`. */
  private probe(name: string, location: string, endpoint: ArmService, withCapability: boolean, signal: AbortSignal | undefined) {
    const now = Date.now()
    let probe = this.probes.get(name)
    if (probe === undefined || probe.location !== location || now - probe.at > (this.opts.probeReuseMs ?? 1000)) {
      // Not bound to this caller's signal: another list may be waiting on the same answer.
      const answer = Promise.all([
        this.checkHealth(name, endpoint, undefined),
        withCapability
          ? this.bounded((s) => endpoint.capabilities(s), undefined).then(
              (c) => (isCapability.Check(c) ? c : null),
              () => null,
            )
          : null,
      ]).then(([health, capability]) => ({ health, capability }))
      probe = { location, at: now, answer }
      this.probes.set(name, probe)
    }
    return signal === undefined ? probe.answer : untilAborted(probe.answer, signal)
  }

  async register(input: unknown, signal?: AbortSignal): Promise<ArmListing> {
    const req = parseRegister(input)
    if (this.opts.builtin.has(req.name) || (BUILTIN_ARMS as readonly string[]).includes(req.name))
      throw HttpError.conflict(`${req.name} is a built-in arm; choose another name`, 'name', 'must not be the name of a built-in arm')
    const url = httpUrl(req.url)
    await checkArmUrl(url, this.addresses)
    const client = new HttpArmClient(url, { addresses: this.addresses })
    let health: ArmHealth
    try {
      health = await this.bounded((s) => client.health(s), signal)
    } catch (err) {
      throw HttpError.validation(
        'url',
        'must serve GET /health answering 200',
        `The arm at ${url} did not answer its health check: ${messageOf(err)}`,
      )
    }
    if (health.status === 'unhealthy')
      throw HttpError.validation('url', 'must serve GET /health answering 200', `The arm at ${url} reports itself unhealthy`)
    let given = req.capability
    if (given === undefined) {
      try {
        given = await this.bounded((s) => client.capabilities(s), signal)
      } catch (err) {
        throw HttpError.validation(
          'capability',
          'must be given or served at GET /capabilities as an ArmCapability',
          `No usable capability from ${url}: ${messageOf(err)}`,
        )
      }
    }
    const capability: ArmCapability = { ...given, endpoint: url }
    const now = new Date().toISOString()
    let stamps = { registered_at: this.external.get(req.name)?.registered_at ?? now, updated_at: now }
    if (this.opts.sql !== undefined) {
      const { rows } = await this.opts.sql.query<{ registered_at: Date; updated_at: Date }>(
        `insert into arms (name, url, capability) values ($1, $2, $3::jsonb)
         on conflict (name) do update set url = excluded.url, capability = excluded.capability, updated_at = now()
         returning registered_at, updated_at`,
        [req.name, url, JSON.stringify(capability)],
      )
      stamps = { registered_at: iso(rows[0]!.registered_at), updated_at: iso(rows[0]!.updated_at) }
    }
    this.external.set(req.name, { url, capability, client, ...stamps })
    return { name: req.name, builtin: false, location: url, capability, health, ...stamps }
  }

  /** Reads the `arms` table into the in-memory view; concurrent callers share one read. */
  async reload(): Promise<void> {
    const sql = this.opts.sql
    if (sql === undefined) return
    this.loading ??= (async () => {
      try {
        const { rows } = await sql.query<{ name: string; url: string; capability: unknown; registered_at: Date; updated_at: Date }>(
          'select name, url, capability, registered_at, updated_at from arms',
        )
        const next = new Map<string, External>()
        for (const row of rows) {
          const capability = typeof row.capability === 'string' ? JSON.parse(row.capability) : row.capability
          if (!isCapability.Check(capability)) continue
          const known = this.external.get(row.name)
          const client = known?.url === row.url ? known.client : new HttpArmClient(row.url, { addresses: this.addresses })
          next.set(row.name, { url: row.url, capability, client, registered_at: iso(row.registered_at), updated_at: iso(row.updated_at) })
        }
        this.external = next
        for (const name of this.probes.keys()) if (!next.has(name) && !this.opts.builtin.has(name)) this.probes.delete(name)
        this.loadedAt = Date.now()
      } finally {
        this.loading = undefined
      }
    })()
    return this.loading
  }

  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }

  private async checkHealth(name: string, endpoint: ArmService, signal: AbortSignal | undefined): Promise<ArmHealth> {
    try {
      return await this.bounded((s) => endpoint.health(s), signal)
    } catch (err) {
      return { status: 'unhealthy', arm: name, version: 'unknown', checks: { reachable: false, error: messageOf(err) } }
    }
  }

  /** Runs `fn` with a signal that aborts on `signal` or after the health timeout; gives up then even if `fn` does not. */
  private bounded<T>(fn: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const ms = this.opts.healthTimeoutMs ?? 2000
    const limit = AbortSignal.timeout(ms)
    const both = signal === undefined ? limit : AbortSignal.any([signal, limit])
    if (both.aborted) return Promise.reject(new Error(limit.aborted ? `no answer within ${ms} ms` : 'aborted'))
    return untilAborted(fn(both), both).catch((err: unknown) => {
      throw both.aborted ? new Error(limit.aborted ? `no answer within ${ms} ms` : 'aborted') : err
    })
  }
}

function httpUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw HttpError.validation('url', 'must be an absolute http:// or https:// URL')
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '')
    throw HttpError.validation('url', 'must be an absolute http:// or https:// URL without credentials')
  return trimEndOf(url.href, '/')
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString()
}
