// A throw-away schema per test file on the PostgreSQL named by DATABASE_URL, so files running in
// parallel against one database never see each other's rows.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const DATABASE_URL = process.env.DATABASE_URL
export const SKIP_PG = DATABASE_URL ? false : 'DATABASE_URL is not set: no PostgreSQL to test against'

export function freshSchemaName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`
}

/** Drops the schema and everything in it; for teardown. */
export async function dropSchema(...schemas: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    for (const schema of schemas) await client.query(`drop schema if exists "${schema}" cascade`)
  } finally {
    await client.end()
  }
}

/**
 * A throw-away database named `<prefix>_<random>` on DATABASE_URL's server, dropped in `t`'s
 * teardown; its URL. For a whole deployment (pg-boss and tables in `public`) that must start empty.
 */
export async function freshDatabase(t: { teardown(fn: () => unknown): void }, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  t.teardown(async () => {
    const again = new pg.Client({ connectionString: DATABASE_URL })
    await again.connect()
    await again.query(`drop database if exists ${name} with (force)`)
    await again.end()
  })
  const url = new URL(DATABASE_URL!)
  url.pathname = `/${name}`
  return url.toString()
}
