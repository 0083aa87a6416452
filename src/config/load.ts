/**
 * `loadConfig()` reads the environment once at start-up and fails fast, listing every problem:
 *
 * ```
 * ConfigError: Invalid configuration (2 problems):
 *   - PORT="80a": must be an integer string
 *   - LOG_LEVEL="verbose": must be one of DEBUG, INFO, WARNING, ERROR
 * ```
 *
 * An empty variable counts as unset. Secrets are never echoed: LLM_API_KEY shows as `(hidden)` and
 * passwords in URLs as `***`.
 */
import { randomBytes } from 'node:crypto'
import { Compile } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'
import { parseNetworks } from '../arms/executor/address-policy.js'
import { PLAN_MEMORY_DEFAULTS } from '../arms/memory.js'
import { algorithmsFor, DEFAULT_JWT_ALGORITHMS, JWT_ALGORITHMS, type JwtAlgorithm, publicJwk } from '../auth/jwt-verifier.js'
import { type PriceTable, parsePrices } from '../llm/prices.js'
import { ARM_NAMES, type ArmName, BLOCK_LEVELS, EnvSchema, INTEGER_VARS, type IntegerVar, LLM_PROVIDERS, LOG_LEVELS } from './schema.js'

export interface Config {
  port: number
  reflexPort: number
  host: string
  dataDir: string
  /** Unset → embedded PGlite under dataDir. */
  databaseUrl: string | undefined
  /** Unset → no shared tier. */
  redisUrl: string | undefined
  /**
   * Where the global rate-limit buckets live: RATE_LIMIT_REDIS_URL, else REDIS_URL; unset → each
   * process limits on its own. A Redis apart from the cache's keeps a flood of cache writes from
   * evicting the buckets (docs/cache-and-limits.md).
   */
  rateLimitRedisUrl: string | undefined
  /** Unset → vectors stay in the database (pgvector or `real[]`); set → Qdrant keeps and searches them. */
  qdrantUrl: string | undefined
  qdrantApiKey: string | undefined
  /** Collection names begin `<prefix>_`; default `ganglion`. */
  qdrantCollectionPrefix: string
  /** Seconds. */
  taskTimeout: number
  maxParallelArms: number
  /** task.run jobs one orchestrator process plans at once; 0 → it runs no task runner (API only). */
  taskWorkers: number
  /** step.run jobs one orchestrator process runs at once. */
  stepWorkers: number
  /** Database statements or transactions the task runner may have in flight at once (its share of the pool) while the API is busy. */
  runnerConnections: number
  /** The same while the API is idle (no statement for a second); never below `runnerConnections`. */
  runnerConnectionsIdle: number
  /** Seconds. */
  cacheTtl: number
  logLevel: (typeof LOG_LEVELS)[number]
  /** Requests per minute. */
  rateLimitPerIp: number
  /** Requests per minute. */
  rateLimitPerUser: number
  /** Reads per minute per client address while auth is off (0: no limit). */
  rateLimitReadsPerIp: number
  /** Reads per minute per principal (0: no limit). */
  rateLimitReadsPerUser: number
  /** Event streams one caller may hold open at once (0: no cap). */
  streamsPerUser: number
  /** Event streams the process holds open at once (0: no cap). */
  streamsTotal: number
  bodyLimitBytes: number
  reflexBlockLevel: (typeof BLOCK_LEVELS)[number]
  /** Injection score (0..1) at which a check is blocked, instead of the block level; unset: the level decides. */
  reflexInjectionThreshold: number | undefined
  /** Least confidence (0..1) of personal data reported and redacted. */
  reflexPiiThreshold: number
  /** Least similarity of a past task shown to the model planner (PLAN_MEMORY_MIN_SIMILARITY). */
  planMemoryMinSimilarity: number
  cacheMaxEntries: number
  cacheMaxBytes: number
  trustProxy: boolean
  llmProvider: (typeof LLM_PROVIDERS)[number]
  llmBaseUrl: string | undefined
  llmApiKey: string | undefined
  /**
   * Salt of the `hash` redaction mode. Unset: random per process, so digests agree only within
   * one process; set it (16+ characters, a secret) for digests stable across processes.
   */
  redactionSalt: string
  llmModel: string | undefined
  llmModelPath: string | undefined
  /** Arms that run as their own service; absent ones run in-process. */
  armUrls: Readonly<Partial<Record<ArmName, string>>>
  /** Model `embed()` asks an OpenAI-compatible server for; unset → the built-in hashing embedder. */
  llmEmbeddingModel: string | undefined
  /** `max_completion_tokens` for OpenAI's reasoning models; `max_tokens` elsewhere. */
  llmMaxTokensField: 'max_tokens' | 'max_completion_tokens'
  /** Seconds one step attempt may run. */
  stepTimeout: number
  /** Seconds one model request may take. */
  llmTimeout: number
  /** llama: the context window in tokens; 0 → what node-llama-cpp picks for the model and memory. */
  llmContextSize: number
  /** Model prices in USD per million tokens, for tasks with `budget.max_cost_usd`; empty → none known. */
  llmPrices: PriceTable
  /** Tasks not yet final one tenant may have (0: no cap). */
  tasksActivePerTenant: number
  /** The token budget of a task that sets none. */
  taskDefaultMaxTokens: number
  /** The largest token budget a task may set (`budget.max_tokens`, `constraints.max_tokens`). */
  taskMaxTokens: number
  /** Milliseconds the guardian's or judge's checks of one call may take together. */
  checkBudgetMs: number
  /** Seconds from SIGTERM or SIGINT to the exit, however far the drain got. */
  shutdownGraceSeconds: number
  /** Finished tasks older than this many days are deleted (docs/storage.md); 0 keeps them for good. */
  taskRetentionDays: number
  /** Where an arm running as its own service finds the orchestrator (for its public key). */
  orchestratorUrl: string
  /** The capability-token signing key shared by several orchestrators; unset → a key per process, only its public half published in the database. */
  capabilityPrivateKey: string | undefined
  /** Commands the executor may run; undefined → its built-in list. */
  executorShellAllow: readonly string[] | undefined
  /** Hosts the executor may fetch (`*.example.com` for subdomains); empty → no fetch at all. */
  executorFetchAllow: readonly string[]
  /** Shell sandboxes running at once in an executor process; more commands wait, within their step's time. */
  executorMaxSandboxes: number
  /** Networks (CIDRs) beyond public addresses that registered arms may be on; empty → public addresses only. */
  armUrlAllowPrivate: readonly string[]
  /** Networks (CIDRs) beyond public addresses that webhook URLs may resolve to; empty → public addresses only. */
  webhookAllowPrivate: readonly string[]
  /** Seals stored webhook signing secrets (AES-256-GCM); unset → stored as they are. */
  webhookSecretKey: string | undefined
  /** Attempts of one webhook delivery, the first included. */
  webhookMaxAttempts: number
  /** Milliseconds before a delivery's second attempt; each later delay is four times the one before. */
  webhookRetryBaseMs: number
  /** Seconds one delivery attempt may take. */
  webhookTimeout: number
  /** The bootstrap admin credential (a bearer token); unset → none. */
  adminToken: string | undefined
  /** Keys stored answers in the cache (HMAC); unset → a secret per process, fine for one process. */
  cacheKeySecret: string
  /**
   * Whether requests need a credential: `off` (the default on a loopback address, where the quick
   * start runs) or `required` (the default anywhere else; `off` there must be set explicitly).
   */
  auth: 'required' | 'off'
  /** Auth is off on an address other hosts can reach: said at start and in every health reply. */
  authOffInTheOpen: boolean
  /** Identity-provider tokens (OIDC JWTs) taken as credentials; undefined → none (AUTH_JWKS_URL and AUTH_PUBLIC_KEY unset). */
  jwt: JwtConfig | undefined
  /**
   * Where spans are exported by OTLP/HTTP: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else
   * OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`; undefined → tracing off.
   */
  otlpTracesEndpoint: string | undefined
  /** OTEL_SERVICE_NAME; undefined → named after the service (`ganglion-orchestrator`, `ganglion-arm-<name>`…). */
  otelServiceName: string | undefined
}

/** The AUTH_* variables of identity-provider tokens; exactly one of `jwksUrl` and `publicKey` is set. */
export interface JwtConfig {
  jwksUrl: string | undefined
  publicKey: string | undefined
  issuer: string
  audience: string
  algorithms: readonly JwtAlgorithm[]
  tenantClaim: string
  rolesClaim: string
}

export class ConfigError extends Error {
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    )
    this.name = 'ConfigError'
    this.problems = problems
  }
}

const validator = Compile(EnvSchema)
const KNOWN = Object.keys(EnvSchema.properties)

const RULES: Record<string, string> = {
  LOG_LEVEL: `must be one of ${LOG_LEVELS.join(', ')}`,
  REFLEX_BLOCK_LEVEL: `must be one of ${BLOCK_LEVELS.join(', ')}`,
  REFLEX_INJECTION_THRESHOLD: 'must be a number from 0 to 1',
  REFLEX_PII_THRESHOLD: 'must be a number from 0 to 1',
  PLAN_MEMORY_MIN_SIMILARITY: 'must be a number from 0 to 1',
  LLM_PROVIDER: `must be one of ${LLM_PROVIDERS.join(', ')}`,
  TRUST_PROXY: 'must be one of true, false, 1, 0',
  DATABASE_URL: 'must be a postgres:// or postgresql:// URL',
  REDIS_URL: 'must be a redis:// or rediss:// URL',
  RATE_LIMIT_REDIS_URL: 'must be a redis:// or rediss:// URL',
  REDACTION_SALT: 'must be at least 16 characters',
  ADMIN_TOKEN: 'must be at least 16 characters',
  LLM_MAX_TOKENS_FIELD: 'must be one of max_tokens, max_completion_tokens',
  EXECUTOR_SHELL_ALLOW: 'must be command names separated by commas',
  EXECUTOR_FETCH_ALLOW: 'must be host names (or *.domain) separated by commas',
  ARM_URL_ALLOW_PRIVATE: 'must be CIDR networks (127.0.0.0/8, fd00::/8) separated by commas',
  WEBHOOK_ALLOW_PRIVATE: 'must be CIDR networks (127.0.0.0/8, fd00::/8) separated by commas',
  WEBHOOK_SECRET_KEY: 'must be at least 32 characters',
  AUTH_ALGORITHMS: 'must be algorithm names separated by commas',
  QDRANT_COLLECTION_PREFIX: 'must be 1 to 64 letters, digits, _ or -, beginning with a letter or digit',
}

/** The variables that only mean something with AUTH_JWKS_URL or AUTH_PUBLIC_KEY. */
const JWT_VARS = ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_ALGORITHMS', 'AUTH_TENANT_CLAIM', 'AUTH_ROLES_CLAIM'] as const

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const raw: Record<string, string> = {}
  for (const name of KNOWN) {
    const value = env[name]
    if (value !== undefined && value !== '') raw[name] = value
  }

  const problems: string[] = []
  if (!validator.Check(raw)) {
    const seen = new Set<string>()
    for (const e of validator.Errors(raw)) {
      const name = e.instancePath.slice(1)
      if (name === '' || seen.has(name)) continue // a union reports each branch; one line per variable
      seen.add(name)
      problems.push(`${name}=${show(name, raw[name])}: ${rule(name, e)}`)
    }
  }

  const int = (name: IntegerVar): number => {
    const [min, max, fallback] = INTEGER_VARS[name]
    const value = raw[name]
    if (value === undefined || !/^\d+$/.test(value)) return fallback // missing, or already reported
    const n = Number(value)
    if (n < min || n > max) problems.push(`${name}=${show(name, value)}: must be between ${min} and ${max}`)
    return n
  }

  const armUrls: Partial<Record<ArmName, string>> = {}
  for (const arm of ARM_NAMES) {
    const url = raw[`ARM_${arm.toUpperCase()}_URL`]
    if (url !== undefined) armUrls[arm] = url
  }

  // Loopback by default, where auth may stay off; any other address needs auth unless it is
  // switched off explicitly.
  const host = raw.HOST ?? '127.0.0.1'
  const auth = (raw.AUTH as Config['auth'] | undefined) ?? (isLoopback(host) ? 'off' : 'required')

  const config: Config = {
    port: int('PORT'),
    reflexPort: int('REFLEX_PORT'),
    host,
    dataDir: raw.DATA_DIR ?? './data',
    databaseUrl: raw.DATABASE_URL,
    redisUrl: raw.REDIS_URL,
    rateLimitRedisUrl: raw.RATE_LIMIT_REDIS_URL ?? raw.REDIS_URL,
    qdrantUrl: raw.QDRANT_URL,
    qdrantApiKey: raw.QDRANT_API_KEY,
    qdrantCollectionPrefix: raw.QDRANT_COLLECTION_PREFIX ?? 'ganglion',
    taskTimeout: int('TASK_TIMEOUT'),
    maxParallelArms: int('MAX_PARALLEL_ARMS'),
    taskWorkers: int('TASK_WORKERS'),
    stepWorkers: int('STEP_WORKERS'),
    runnerConnections: int('RUNNER_CONNECTIONS'),
    runnerConnectionsIdle: Math.max(int('RUNNER_CONNECTIONS'), int('RUNNER_CONNECTIONS_IDLE')),
    cacheTtl: int('CACHE_TTL'),
    logLevel: (raw.LOG_LEVEL as Config['logLevel'] | undefined) ?? 'INFO',
    rateLimitPerIp: int('RATE_LIMIT_PER_IP'),
    rateLimitPerUser: int('RATE_LIMIT_PER_USER'),
    rateLimitReadsPerIp: int('RATE_LIMIT_READS_PER_IP'),
    rateLimitReadsPerUser: int('RATE_LIMIT_READS_PER_USER'),
    streamsPerUser: int('STREAMS_PER_USER'),
    streamsTotal: int('STREAMS_TOTAL'),
    bodyLimitBytes: int('BODY_LIMIT_BYTES'),
    reflexBlockLevel: (raw.REFLEX_BLOCK_LEVEL as Config['reflexBlockLevel'] | undefined) ?? 'high',
    reflexInjectionThreshold: fraction(raw, 'REFLEX_INJECTION_THRESHOLD', problems),
    reflexPiiThreshold: fraction(raw, 'REFLEX_PII_THRESHOLD', problems) ?? 0.4,
    planMemoryMinSimilarity: fraction(raw, 'PLAN_MEMORY_MIN_SIMILARITY', problems) ?? PLAN_MEMORY_DEFAULTS.minSimilarity,
    cacheMaxEntries: int('CACHE_MAX_ENTRIES'),
    cacheMaxBytes: int('CACHE_MAX_BYTES'),
    trustProxy: raw.TRUST_PROXY === 'true' || raw.TRUST_PROXY === '1',
    llmProvider: (raw.LLM_PROVIDER as Config['llmProvider'] | undefined) ?? 'offline',
    llmBaseUrl: raw.LLM_BASE_URL,
    llmApiKey: raw.LLM_API_KEY,
    redactionSalt: raw.REDACTION_SALT ?? randomBytes(16).toString('hex'),
    llmModel: raw.LLM_MODEL,
    llmModelPath: raw.LLM_MODEL_PATH,
    armUrls: Object.freeze(armUrls),
    llmEmbeddingModel: raw.LLM_EMBEDDING_MODEL,
    llmMaxTokensField: (raw.LLM_MAX_TOKENS_FIELD as Config['llmMaxTokensField'] | undefined) ?? 'max_tokens',
    stepTimeout: int('STEP_TIMEOUT'),
    llmTimeout: int('LLM_TIMEOUT'),
    llmContextSize: int('LLM_CONTEXT_SIZE'),
    llmPrices: prices(raw, problems),
    tasksActivePerTenant: int('TASKS_ACTIVE_PER_TENANT'),
    taskDefaultMaxTokens: int('TASK_DEFAULT_MAX_TOKENS'),
    taskMaxTokens: int('TASK_MAX_TOKENS'),
    checkBudgetMs: int('CHECK_BUDGET_MS'),
    shutdownGraceSeconds: int('SHUTDOWN_GRACE_SECONDS'),
    taskRetentionDays: int('TASK_RETENTION_DAYS'),
    orchestratorUrl: raw.ORCHESTRATOR_URL ?? 'http://127.0.0.1:8000',
    capabilityPrivateKey: raw.CAPABILITY_PRIVATE_KEY,
    executorShellAllow: raw.EXECUTOR_SHELL_ALLOW === undefined ? undefined : Object.freeze(raw.EXECUTOR_SHELL_ALLOW.split(',')),
    executorFetchAllow: Object.freeze(raw.EXECUTOR_FETCH_ALLOW?.split(',') ?? []),
    executorMaxSandboxes: int('EXECUTOR_MAX_SANDBOXES'),
    armUrlAllowPrivate: networks('ARM_URL_ALLOW_PRIVATE', raw.ARM_URL_ALLOW_PRIVATE, problems),
    webhookAllowPrivate: networks('WEBHOOK_ALLOW_PRIVATE', raw.WEBHOOK_ALLOW_PRIVATE, problems),
    webhookSecretKey: raw.WEBHOOK_SECRET_KEY,
    webhookMaxAttempts: int('WEBHOOK_MAX_ATTEMPTS'),
    webhookRetryBaseMs: int('WEBHOOK_RETRY_BASE_MS'),
    webhookTimeout: int('WEBHOOK_TIMEOUT'),
    adminToken: raw.ADMIN_TOKEN,
    cacheKeySecret: raw.CACHE_KEY_SECRET ?? randomBytes(32).toString('hex'),
    auth,
    authOffInTheOpen: auth === 'off' && !isLoopback(host),
    jwt: jwtConfig(raw, problems),
    otlpTracesEndpoint: tracesEndpoint(raw),
    otelServiceName: raw.OTEL_SERVICE_NAME,
  }

  if (config.taskDefaultMaxTokens > config.taskMaxTokens)
    problems.push(
      `TASK_DEFAULT_MAX_TOKENS=${show('TASK_DEFAULT_MAX_TOKENS', String(config.taskDefaultMaxTokens))}: must be at most TASK_MAX_TOKENS (${config.taskMaxTokens})`,
    )
  if (problems.length > 0) throw new ConfigError(problems)
  return Object.freeze(config)
}

/** The OTLP traces URL: the signal's own variable as it is, else the collector root with `/v1/traces` (the OTLP rule). */
function tracesEndpoint(raw: Record<string, string>): string | undefined {
  const own = raw.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  if (own !== undefined) return own
  const root = raw.OTEL_EXPORTER_OTLP_ENDPOINT
  return root === undefined ? undefined : `${root.endsWith('/') ? root.slice(0, -1) : root}/v1/traces`
}

/** A threshold variable as a number from 0 to 1; unset (or already reported) → undefined. A problem goes to `problems`. */
function fraction(
  raw: Record<string, string>,
  name: 'REFLEX_INJECTION_THRESHOLD' | 'REFLEX_PII_THRESHOLD' | 'PLAN_MEMORY_MIN_SIMILARITY',
  problems: string[],
): number | undefined {
  const value = raw[name]
  if (value === undefined || problems.some((p) => p.startsWith(`${name}=`))) return undefined
  const n = Number(value)
  if (!(n >= 0 && n <= 1)) {
    problems.push(`${name}=${show(name, value)}: must be a number from 0 to 1`)
    return undefined
  }
  return n
}

/** LLM_PRICES as a table; unset → empty. A problem goes to `problems`. */
/** The networks of ARM_URL_ALLOW_PRIVATE or WEBHOOK_ALLOW_PRIVATE, each one checked; a bad one is a problem naming it. */
function networks(name: string, value: string | undefined, problems: string[]): readonly string[] {
  const entries = value?.split(',') ?? []
  // Past the schema's pattern (hex digits, dots, colons, slashes), one line for the first bad network.
  if (problems.some((p) => p.startsWith(`${name}=`))) return Object.freeze(entries)
  try {
    parseNetworks(entries)
  } catch (err) {
    problems.push(`${name}=${JSON.stringify(value)}: ${(err as Error).message}`)
  }
  return Object.freeze(entries)
}

function prices(raw: Record<string, string>, problems: string[]): PriceTable {
  if (raw.LLM_PRICES === undefined) return Object.freeze({})
  const parsed = parsePrices(raw.LLM_PRICES)
  if ('table' in parsed) return parsed.table
  problems.push(`LLM_PRICES=${show('LLM_PRICES', raw.LLM_PRICES)}: ${parsed.problem}`)
  return Object.freeze({})
}

/** The identity-provider token settings, or undefined when none are configured; each problem goes to `problems`. */
function jwtConfig(raw: Record<string, string>, problems: string[]): JwtConfig | undefined {
  const jwksUrl = raw.AUTH_JWKS_URL
  const publicKey = raw.AUTH_PUBLIC_KEY
  if (jwksUrl === undefined && publicKey === undefined) {
    const set = JWT_VARS.filter((name) => raw[name] !== undefined)
    if (set.length > 0) problems.push(`${set.join(', ')}: set, but tokens can only be checked with AUTH_JWKS_URL or AUTH_PUBLIC_KEY`)
    return undefined
  }
  if (jwksUrl !== undefined && publicKey !== undefined)
    problems.push('AUTH_JWKS_URL and AUTH_PUBLIC_KEY: set only one, the key set URL or the public key')
  const source = jwksUrl !== undefined ? 'AUTH_JWKS_URL' : 'AUTH_PUBLIC_KEY'
  for (const name of ['AUTH_ISSUER', 'AUTH_AUDIENCE'])
    if (raw[name] === undefined) problems.push(`${name}=(unset): required with ${source}`)

  let algorithms: readonly JwtAlgorithm[] = DEFAULT_JWT_ALGORITHMS
  const listed = raw.AUTH_ALGORITHMS
  if (listed !== undefined && /^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$/.test(listed)) {
    const names = listed.split(',')
    const refused = names.filter((n) => /^(none|HS\d+)$/i.test(n))
    const unknown = names.filter((n) => !refused.includes(n) && !(JWT_ALGORITHMS as readonly string[]).includes(n))
    if (refused.length > 0)
      problems.push(`AUTH_ALGORITHMS=${show('AUTH_ALGORITHMS', listed)}: ${refused.join(', ')} never accepted (none and HMAC are refused)`)
    if (unknown.length > 0)
      problems.push(
        `AUTH_ALGORITHMS=${show('AUTH_ALGORITHMS', listed)}: ${unknown.join(', ')} unknown; must be among ${JWT_ALGORITHMS.join(', ')}`,
      )
    algorithms = Object.freeze(names.filter((n): n is JwtAlgorithm => (JWT_ALGORITHMS as readonly string[]).includes(n)))
  }
  if (publicKey !== undefined) {
    try {
      const jwk = publicJwk(publicKey)
      if (algorithmsFor(jwk, algorithms).length === 0)
        problems.push(
          `AUTH_PUBLIC_KEY=(hidden): a key of type ${jwk.kty}${jwk.alg ? ` for ${jwk.alg}` : ''} verifies none of ${algorithms.join(', ')}`,
        )
    } catch (err) {
      problems.push(`AUTH_PUBLIC_KEY=(hidden): ${(err as Error).message}`)
    }
  }
  return Object.freeze({
    jwksUrl,
    publicKey,
    issuer: raw.AUTH_ISSUER ?? '',
    audience: raw.AUTH_AUDIENCE ?? '',
    algorithms,
    tenantClaim: raw.AUTH_TENANT_CLAIM ?? 'tenant',
    rolesClaim: raw.AUTH_ROLES_CLAIM ?? 'roles',
  })
}

function rule(name: string, e: TLocalizedValidationError): string {
  if (RULES[name] !== undefined) return RULES[name]
  if (name in INTEGER_VARS) return 'must be an integer string'
  if (name.endsWith('_URL')) return 'must be an http:// or https:// URL'
  if (e.keyword === 'minLength') return 'must not be empty'
  return e.message
}

/** The value as it may appear in an error message: quoted, secrets masked. */
function show(name: string, value: string | undefined): string {
  if (value === undefined) return '(unset)'
  if (
    [
      'LLM_API_KEY',
      'REDACTION_SALT',
      'CAPABILITY_PRIVATE_KEY',
      'ADMIN_TOKEN',
      'CACHE_KEY_SECRET',
      'AUTH_PUBLIC_KEY',
      'WEBHOOK_SECRET_KEY',
      'QDRANT_API_KEY',
    ].includes(name)
  )
    return '(hidden)'
  return JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@'))
}

/** Whether `host` is reachable from this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
}
