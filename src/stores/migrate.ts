/**
 * Runs the numbered `.sql` files in `migrations/` (repository root) that this database has not seen.
 *
 * ```ts
 * const applied = await migrate(sql) // ['0001_tasks', ...] or [] when up to date
 * ```
 *
 * The whole run is one transaction holding a transaction-scoped advisory lock keyed on the schema, so
 * several processes starting at once queue up: the first applies, the others then find nothing to do.
 * A file that fails rolls back the whole run. Applied files are recorded in `schema_migrations` and
 * never edited afterwards; a change is a new file.
 */
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Sql } from './sql.js'

// Two levels up from src/stores/ and from dist/stores/ alike, so the same path works built and in tests.
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url))

export interface Migration {
  /** File name without `.sql`, e.g. `0001_tasks`; ordered by its leading number. */
  name: string
  sql: string
}

export async function loadMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d+_[\w-]+\.sql$/.test(f)).sort()
  return Promise.all(files.map(async (f) => ({ name: f.slice(0, -'.sql'.length), sql: await readFile(`${dir}/${f}`, 'utf8') })))
}

export async function migrate(sql: Sql, migrations?: Migration[]): Promise<string[]> {
  const todo = migrations ?? (await loadMigrations())
  return sql.transaction(async (tx) => {
    // hashtext gives the int4 key; the prefix keeps it apart from pg-boss's own advisory locks.
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`ganglion.migrate.${tx.schema}`])
    await tx.exec(`create schema if not exists "${tx.schema}"`)
    await tx.exec(
      `create table if not exists "${tx.schema}".schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now())`,
    )
    const { rows } = await tx.query<{ name: string }>(`select name from "${tx.schema}".schema_migrations`)
    const done = new Set(rows.map((r) => r.name))
    const applied: string[] = []
    for (const m of todo) {
      if (done.has(m.name)) continue
      await tx.exec(m.sql)
      await tx.query(`insert into "${tx.schema}".schema_migrations (name) values ($1)`, [m.name])
      applied.push(m.name)
    }
    return applied
  })
}
