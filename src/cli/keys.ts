/**
 * `ganglion keys create | list | revoke`: API keys managed directly on the configured database
 * (DATABASE_URL, or the PGlite under DATA_DIR), with no service running: how a new deployment
 * with AUTH=required gets its first key (docs/security.md#api-keys).
 *
 * ```sh
 * KEY=$(ganglion keys create --tenant acme --role admin --name bootstrap)   # the key alone on stdout
 * ganglion keys list --tenant acme --json
 * ganglion keys revoke 3f9c0a7d51e2b846
 * ```
 *
 * Exit codes: 0 done, 1 no such key, 2 bad arguments or configuration. The embedded PGlite is one
 * process's: stop the service before using these on its DATA_DIR.
 */
import { CreateApiKeyRequest, createApiKey, createdBody } from '../auth/api-keys.js'
import { type Config, ConfigError, loadConfig } from '../config/load.js'
import { HttpError } from '../http/errors.js'
import { compileSchema } from '../http/validate.js'
import type { ApiKeyRecord, ApiKeyStore } from '../stores/api-key-store.js'
import { openSql } from '../stores/open-sql.js'
import { SqlApiKeyStore } from '../stores/sql-api-key-store.js'

/** Bad arguments or configuration. */
const USAGE = 2
const NOT_FOUND = 1
const TENANT = /^[A-Za-z0-9._-]{1,128}$/
const parseCreate = compileSchema(CreateApiKeyRequest)

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message)
  }
}

/** Runs `fn` on the configured database's key store; any refusal becomes its message and exit code. */
async function withKeys(fn: (keys: ApiKeyStore, config: Readonly<Config>) => Promise<void>): Promise<void> {
  try {
    let config: Readonly<Config>
    try {
      config = loadConfig(process.env)
    } catch (err) {
      if (err instanceof ConfigError) throw new CliError(err.message, USAGE)
      throw err
    }
    const sql = await openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    try {
      await fn(new SqlApiKeyStore(sql), config)
    } finally {
      await sql.close()
    }
  } catch (err) {
    if (!(err instanceof CliError)) throw err
    process.stderr.write(`${err.message}\n`)
    process.exitCode = err.exitCode
  }
}

export interface CreateOptions {
  tenant?: string
  role?: string
  name?: string
  rateLimit?: string
  readRateLimit?: string
  json?: boolean
}

/** A whole number as given on the command line becomes one; anything else stays text, for the schema to refuse. */
function asNumber(text: string): number | string {
  return /^\d{1,10}$/.test(text) ? Number(text) : text
}

/** The create request the options make, checked as the service checks it; undefined (exit 2) when they are bad. */
export function createRequest(opts: CreateOptions): CreateApiKeyRequest | undefined {
  try {
    const { tenant, role, name, rateLimit, readRateLimit } = opts
    return parseCreate({
      tenant,
      role,
      name,
      ...(rateLimit !== undefined && { rate_limit: asNumber(rateLimit) }),
      ...(readRateLimit !== undefined && { read_rate_limit: asNumber(readRateLimit) }),
    })
  } catch (err) {
    if (!(err instanceof HttpError) || err.details.field === undefined) throw err
    process.stderr.write(`--${err.details.field.replaceAll('_', '-')}: ${err.details.constraint}\n`)
    process.exitCode = USAGE
    return undefined
  }
}

export async function createKey(opts: CreateOptions): Promise<void> {
  const req = createRequest(opts)
  if (req === undefined) return
  await withKeys(async (keys, config) => {
    const { record, key } = await createApiKey(keys, req)
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(createdBody(record, key))}\n`)
      return
    }
    // The key alone on stdout (for `KEY=$(…)`), what it is and how to use it on stderr.
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
    process.stderr.write(
      `Created API key ${record.id}: role ${record.role} in tenant ${record.tenant} (${JSON.stringify(record.name)}).\n` +
        'This is the only time the key is shown; only a hash of its secret is stored. Keep it now:\n\n',
    )
    process.stdout.write(`${key}\n`)
    process.stderr.write(
      `\nSend it as a bearer token, to the orchestrator or the reflex layer:\n` +
        `  curl -H "Authorization: Bearer <key>" http://${host}:${config.port}/api/v1/tasks\n` +
        `Revoke it with: ganglion keys revoke ${record.id}\n`,
    )
  })
}

export interface ListOptions {
  tenant?: string
  json?: boolean
}

const PAGE = 100

export async function listKeys(opts: ListOptions): Promise<void> {
  if (opts.tenant !== undefined && !TENANT.test(opts.tenant)) {
    process.stderr.write(`--tenant ${JSON.stringify(opts.tenant)}: must be 1 to 128 of A-Z a-z 0-9 . _ -\n`)
    process.exitCode = USAGE
    return
  }
  await withKeys(async (keys) => {
    const all: ApiKeyRecord[] = []
    for (let offset = 0; ; offset += PAGE) {
      const { items, total } = await keys.list({
        ...(opts.tenant !== undefined && { tenant: opts.tenant }),
        sortBy: 'created_at',
        order: 'asc',
        limit: PAGE,
        offset,
      })
      all.push(...items)
      if (items.length === 0 || all.length >= total) break
    }
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(all)}\n`)
      return
    }
    if (all.length === 0) {
      process.stderr.write(opts.tenant === undefined ? 'No API keys.\n' : `No API keys in tenant ${opts.tenant}.\n`)
      return
    }
    process.stdout.write(table(all))
  })
}

export async function revokeKey(id: string): Promise<void> {
  await withKeys(async (keys) => {
    const record = await keys.revoke(id)
    if (record === undefined) throw new CliError(`No API key with id ${JSON.stringify(id)}`, NOT_FOUND)
    process.stdout.write(`Revoked API key ${record.id} (${record.role} in tenant ${record.tenant}) at ${record.revoked_at}\n`)
  })
}

/** A key's own limits as `writes/reads`: `default` where it has none, `none` for 0. */
export function limits(k: ApiKeyRecord): string {
  const one = (n: number | null) => (n === null ? 'default' : n === 0 ? 'none' : String(n))
  return k.rate_limit === null && k.read_rate_limit === null ? 'default' : `${one(k.rate_limit)}/${one(k.read_rate_limit)}`
}

export function table(keys: readonly ApiKeyRecord[]): string {
  const header = ['ID', 'TENANT', 'ROLE', 'NAME', 'LIMITS/MIN', 'CREATED', 'LAST USED', 'REVOKED']
  const rows = keys.map((k) => [k.id, k.tenant, k.role, k.name, limits(k), k.created_at, k.last_used_at ?? '-', k.revoked_at ?? '-'])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}\n`
  return line(header) + rows.map(line).join('')
}
