/**
 * The environment Ganglion reads (the README's Configuration table), declared once: each variable
 * with its rule and default. `load.ts` turns the raw strings into the typed `Config`.
 *
 * Numbers arrive as strings and are checked as integer strings here, then converted by the loader;
 * URLs are checked by scheme so a typo (`postgress://`) fails at start-up, not at first query.
 */
import { type Static, type TOptional, type TString, Type } from 'typebox'

// The range is checked by the loader once the string is a number.
const Int = (description: string) => Type.String({ pattern: '^\\d+$', description })

// A decimal such as 0.35 or .5; the loader checks it is from 0 to 1.
const Fraction = (description: string) => Type.Optional(Type.String({ pattern: '^(\\d+(\\.\\d+)?|\\.\\d+)$', description }))

const Url = (schemes: string[], description: string) =>
  Type.Optional(Type.String({ pattern: `^(${schemes.join('|')})://\\S+$`, description }))

export const ARM_NAMES = ['planner', 'executor', 'coder', 'judge', 'guardian', 'retriever'] as const
export type ArmName = (typeof ARM_NAMES)[number]

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const
export const BLOCK_LEVELS = ['low', 'medium', 'high', 'critical'] as const
export const LLM_PROVIDERS = ['offline', 'openai', 'anthropic', 'llama'] as const

/** Integer variables: [min, max, default]. */
export const INTEGER_VARS = {
  PORT: [0, 65535, 8000],
  REFLEX_PORT: [0, 65535, 8001],
  TASK_TIMEOUT: [1, 86400, 300], // seconds
  MAX_PARALLEL_ARMS: [1, 1000, 5],
  TASK_WORKERS: [0, 1000, 4], // task.run jobs at once per orchestrator process; 0 = API only, runs nothing
  STEP_WORKERS: [1, 1000, 16], // step.run jobs at once per orchestrator process
  RUNNER_CONNECTIONS: [1, 1000, 2], // statements/transactions the task runner runs at once on the pool (default 10) while the API is busy
  RUNNER_CONNECTIONS_IDLE: [1, 1000, 8], // the same while the API has used no connection for a second (at least RUNNER_CONNECTIONS)
  CACHE_TTL: [1, 31536000, 3600], // seconds
  // Requests per minute; 0 switches the limit off. With auth off every client is limited by its
  // address; with auth on, by its principal. Writes and reads have budgets of their own.
  RATE_LIMIT_PER_IP: [0, 1000000000, 100],
  RATE_LIMIT_READS_PER_IP: [0, 1000000000, 600],
  RATE_LIMIT_PER_USER: [0, 1000000000, 1000],
  RATE_LIMIT_READS_PER_USER: [0, 1000000000, 6000],
  STREAMS_PER_USER: [0, 1000000, 20], // open event streams per caller; 0 = no cap
  STREAMS_TOTAL: [0, 10000000, 2000], // open event streams per process; 0 = no cap
  BODY_LIMIT_BYTES: [1, 1073741824, 1048576], // 1 MiB
  CACHE_MAX_ENTRIES: [1, 100000000, 100000],
  CACHE_MAX_BYTES: [1, 68719476736, 268435456], // 256 MiB
  STEP_TIMEOUT: [1, 86400, 60], // seconds: one attempt of one step (and its capability token's lifetime)
  LLM_TIMEOUT: [1, 3600, 120], // seconds: one model request
  LLM_CONTEXT_SIZE: [0, 10000000, 0], // tokens, llama only; 0 = what node-llama-cpp picks
  TASKS_ACTIVE_PER_TENANT: [0, 100000000, 1000], // tasks not yet final per tenant; 0 = no cap
  TASK_DEFAULT_MAX_TOKENS: [1, 1000000000, 20000], // model tokens of a task that sets no token budget
  TASK_MAX_TOKENS: [1, 1000000000, 200000], // the largest token budget a task may ask for
  EXECUTOR_MAX_SANDBOXES: [1, 1000, 4], // shell sandboxes running at once per executor process; more wait
  WEBHOOK_MAX_ATTEMPTS: [1, 20, 6], // attempts of one webhook delivery, the first included
  WEBHOOK_RETRY_BASE_MS: [1, 3600000, 10000], // delay before a delivery's second attempt; each later one is four times longer
  WEBHOOK_TIMEOUT: [1, 300, 10], // seconds one delivery attempt may take
  CHECK_BUDGET_MS: [1, 60000, 2000], // event-loop time the guardian's or judge's checks of one call may take together
  SHUTDOWN_GRACE_SECONDS: [1, 3600, 15], // after SIGTERM/SIGINT, the process exits by this time even if draining hangs
  TASK_RETENTION_DAYS: [0, 36500, 0], // finished tasks older than this are deleted with their events and steps; 0 = kept for good
} as const satisfies Record<string, readonly [number, number, number]>

export type IntegerVar = keyof typeof INTEGER_VARS

const intProperties = Object.fromEntries(
  Object.entries(INTEGER_VARS).map(([name, [min, max]]) => [name, Type.Optional(Int(`integer ${min}..${max}`))]),
) as Record<IntegerVar, TOptional<TString>>

const armProperties = Object.fromEntries(
  ARM_NAMES.map((arm) => [`ARM_${arm.toUpperCase()}_URL`, Url(['http', 'https'], `URL of the ${arm} arm when it runs elsewhere`)]),
) as Record<`ARM_${Uppercase<ArmName>}_URL`, TOptional<TString>>

/** The variables as strings, before conversion. Unknown variables are ignored (it is the whole environment). */
export const EnvSchema = Type.Object({
  ...intProperties,
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  AUTH: Type.Optional(Type.Union([Type.Literal('required'), Type.Literal('off')], { description: 'whether requests need a credential' })),
  DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  DATABASE_URL: Url(['postgres', 'postgresql'], 'PostgreSQL; unset means embedded PGlite under DATA_DIR'),
  REDIS_URL: Url(['redis', 'rediss'], 'shared cache and rate-limit tier; unset means in-process only'),
  RATE_LIMIT_REDIS_URL: Url(['redis', 'rediss'], 'a Redis of its own for the rate-limit buckets; unset means REDIS_URL'),
  QDRANT_URL: Url(['http', 'https'], 'Qdrant keeps and searches the vectors instead of the database'),
  QDRANT_API_KEY: Type.Optional(Type.String({ minLength: 1, description: "Qdrant's API key (its service.api_key)" })),
  QDRANT_COLLECTION_PREFIX: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$', description: 'collection names begin <prefix>_' }),
  ),
  LOG_LEVEL: Type.Optional(Type.Union(LOG_LEVELS.map((l) => Type.Literal(l)))),
  REFLEX_BLOCK_LEVEL: Type.Optional(Type.Union(BLOCK_LEVELS.map((l) => Type.Literal(l)))),
  REFLEX_INJECTION_THRESHOLD: Fraction('injection score (0..1) at which a check is blocked, instead of REFLEX_BLOCK_LEVEL'),
  REFLEX_PII_THRESHOLD: Fraction('least confidence (0..1) of personal data reported and redacted'),
  PLAN_MEMORY_MIN_SIMILARITY: Fraction('least similarity (0..1) of a past task shown to the model planner'),
  TRUST_PROXY: Type.Optional(Type.Union(['true', 'false', '1', '0'].map((l) => Type.Literal(l)))),
  LLM_PROVIDER: Type.Optional(Type.Union(LLM_PROVIDERS.map((l) => Type.Literal(l)))),
  LLM_BASE_URL: Url(['http', 'https'], 'OpenAI-compatible or Anthropic endpoint'),
  LLM_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  REDACTION_SALT: Type.Optional(Type.String({ minLength: 16 })),
  LLM_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  LLM_MODEL_PATH: Type.Optional(Type.String({ minLength: 1 })),
  LLM_EMBEDDING_MODEL: Type.Optional(Type.String({ minLength: 1, description: 'embeddings model on an OpenAI-compatible server' })),
  LLM_PRICES: Type.Optional(Type.String({ minLength: 1, description: 'JSON: model name → input_per_mtok, output_per_mtok (USD)' })),
  LLM_MAX_TOKENS_FIELD: Type.Optional(Type.Union([Type.Literal('max_tokens'), Type.Literal('max_completion_tokens')])),
  ORCHESTRATOR_URL: Url(['http', 'https'], "where an arm service fetches the orchestrator's public key (/.well-known/jwks.json)"),
  CAPABILITY_PRIVATE_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 'Ed25519 signing key (PKCS8 PEM or JWK) shared by orchestrators' }),
  ),
  CACHE_KEY_SECRET: Type.Optional(
    Type.String({ minLength: 16, description: 'keys the cache entries of stored answers; the same in every process of a deployment' }),
  ),
  ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16, description: 'bearer token for administrative routes (arm registration)' })),
  AUTH_JWKS_URL: Url(['http', 'https'], "the identity provider's key set, for its tokens (OIDC JWTs)"),
  AUTH_PUBLIC_KEY: Type.Optional(
    Type.String({ minLength: 1, description: "the identity provider's public key (PEM SPKI or JWK), instead of AUTH_JWKS_URL" }),
  ),
  AUTH_ISSUER: Type.Optional(Type.String({ minLength: 1, description: 'the iss every token must name' })),
  AUTH_AUDIENCE: Type.Optional(Type.String({ minLength: 1, description: 'an aud every token must carry' })),
  AUTH_ALGORITHMS: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$', description: 'signature algorithms tokens may use, comma-separated' }),
  ),
  AUTH_TENANT_CLAIM: Type.Optional(Type.String({ minLength: 1, description: "the claim naming the token's tenant" })),
  AUTH_ROLES_CLAIM: Type.Optional(Type.String({ minLength: 1, description: "the claim listing the token's roles" })),
  EXECUTOR_SHELL_ALLOW: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9._+-]+(,[A-Za-z0-9._+-]+)*$', description: 'commands the executor may run' }),
  ),
  EXECUTOR_FETCH_ALLOW: Type.Optional(
    Type.String({ pattern: '^(\\*\\.)?[A-Za-z0-9.-]+(,(\\*\\.)?[A-Za-z0-9.-]+)*$', description: 'hosts the executor may fetch' }),
  ),
  ARM_URL_ALLOW_PRIVATE: Type.Optional(
    Type.String({
      pattern: '^[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*$',
      description: 'networks beyond public addresses that registered arms may be on, CIDRs separated by commas',
    }),
  ),
  WEBHOOK_ALLOW_PRIVATE: Type.Optional(
    Type.String({
      pattern: '^[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*$',
      description: 'networks beyond public addresses that webhook URLs may resolve to, CIDRs separated by commas',
    }),
  ),
  WEBHOOK_SECRET_KEY: Type.Optional(
    Type.String({ minLength: 32, description: 'seals stored webhook signing secrets; the same in every process of a deployment' }),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: Url(['http', 'https'], 'OTLP/HTTP collector root; traces go to its /v1/traces'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Url(['http', 'https'], 'OTLP/HTTP traces URL, used as it is'),
  OTEL_SERVICE_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'service.name of the exported spans' })),
  ...armProperties,
})

export type Env = Static<typeof EnvSchema>
