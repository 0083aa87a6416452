/**
 * The API key store on the SQL port (PGlite or PostgreSQL): the `api_keys` table of migrations 0008
 * and 0010.
 *
 * ```ts
 * const keys = new SqlApiKeyStore(sql)
 * const { items, total } = await keys.list({ tenant: 'acme', sortBy: 'created_at', order: 'desc', limit: 20, offset: 0 })
 * ```
 *
 * Every statement names the key by id or the tenant it lists; none reads `secret_hash` but `get`.
 */
import type { Role } from '../auth/principal.js'
import type { ApiKeyListOptions, ApiKeyRecord, ApiKeySortKey, ApiKeyStore, NewApiKey, StoredApiKey } from './api-key-store.js'
import type { Sql } from './sql.js'

interface Row {
  id: string
  tenant: string
  role: string
  name: string
  created_at: Date
  revoked_at: Date | null
  last_used_at: Date | null
  rate_limit: number | null
  read_rate_limit: number | null
}

const COLUMNS = 'id, tenant, role, name, created_at, revoked_at, last_used_at, rate_limit, read_rate_limit'

// The only identifiers the list interpolates, from a closed set.
const SORT_COLUMNS: Readonly<Record<ApiKeySortKey, string>> = { created_at: 'created_at', name: 'name', tenant: 'tenant' }

function toRecord(row: Row): ApiKeyRecord {
  return {
    id: row.id,
    tenant: row.tenant,
    role: row.role as Role,
    name: row.name,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    rate_limit: row.rate_limit,
    read_rate_limit: row.read_rate_limit,
  }
}

export class SqlApiKeyStore implements ApiKeyStore {
  constructor(private readonly sql: Sql) {}

  async insert(key: NewApiKey): Promise<ApiKeyRecord> {
    const { rows } = await this.sql.query<Row>(
      `insert into api_keys (id, tenant, role, name, secret_hash, rate_limit, read_rate_limit)
       values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
      [key.id, key.tenant, key.role, key.name, key.secret_hash, key.rate_limit ?? null, key.read_rate_limit ?? null],
    )
    return toRecord(rows[0]!)
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    const { rows } = await this.sql.query<Row & { secret_hash: Uint8Array }>(`select ${COLUMNS}, secret_hash from api_keys where id = $1`, [
      id,
    ])
    const row = rows[0]
    return row === undefined ? undefined : { ...toRecord(row), secret_hash: new Uint8Array(row.secret_hash) }
  }

  async list(opts: ApiKeyListOptions): Promise<{ items: ApiKeyRecord[]; total: number }> {
    const order = opts.order === 'asc' ? 'asc' : 'desc'
    const column = SORT_COLUMNS[opts.sortBy]
    // `$1::text is null` keeps one statement for both: every tenant, or the one asked for.
    const where = 'where ($1::text is null or tenant = $1)'
    const tenant = opts.tenant ?? null
    const [page, count] = await Promise.all([
      this.sql.query<Row>(`select ${COLUMNS} from api_keys ${where} order by ${column} ${order}, id ${order} limit $2 offset $3`, [
        tenant,
        opts.limit,
        opts.offset,
      ]),
      this.sql.query<{ n: number | string }>(`select count(*) as n from api_keys ${where}`, [tenant]),
    ])
    return { items: page.rows.map(toRecord), total: Number(count.rows[0]?.n ?? 0) }
  }

  async revoke(id: string): Promise<ApiKeyRecord | undefined> {
    // coalesce: a second revocation keeps the first one's time.
    const { rows } = await this.sql.query<Row>(
      `update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1 returning ${COLUMNS}`,
      [id],
    )
    return rows[0] === undefined ? undefined : toRecord(rows[0])
  }

  async touch(id: string, at: Date, minIntervalMs: number): Promise<void> {
    // Conditional, so processes sharing the database do not each write the row every minute.
    await this.sql.query(
      `update api_keys set last_used_at = $2
        where id = $1 and (last_used_at is null or last_used_at < $2::timestamptz - make_interval(secs => $3::double precision / 1000))`,
      [id, at.toISOString(), minIntervalMs],
    )
  }
}
