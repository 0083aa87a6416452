// The orchestrator and the reflex layer in one process, on PGlite and (DATABASE_URL) on a fresh
// PostgreSQL database with Redis (REDIS_URL), for requests a well-behaved client never sends.
// Bodies are sent as raw text, since `JSON.stringify` cannot spell every malformed one.
import t, { type Test } from 'tap'
import { startServices } from '../helpers/servers.js'
import { freshDatabase, SKIP_PG } from '../stores/pg-schema.js'

export interface Hosts {
  /** The orchestrator's base URL. */
  orchestrator: string
  /** The reflex layer's base URL. */
  reflex: string
}

const LIMITS = { RATE_LIMIT_PER_IP: '1000000', RATE_LIMIT_READS_PER_IP: '1000000' }

async function startBoth(t: Test, env: Record<string, string>): Promise<Hosts> {
  const running = await startServices(t, { orchestrator: true, reflex: true }, { ...LIMITS, ...env })
  return {
    orchestrator: `http://127.0.0.1:${running.ports.orchestrator}`,
    reflex: `http://127.0.0.1:${running.ports.reflex}`,
  }
}

/** Runs `body` against both services on PGlite, and on PostgreSQL when DATABASE_URL is set. */
export function onEachBackend(name: string, body: (t: Test, hosts: Hosts) => Promise<void>): void {
  t.test(`${name} (PGlite)`, async (t) => {
    await body(t, await startBoth(t, {}))
  })
  t.test(`${name} (PostgreSQL)`, { skip: SKIP_PG }, async (t) => {
    const databaseUrl = await freshDatabase(t, 'ganglion_hostile')
    const redis = process.env.REDIS_URL
    await body(t, await startBoth(t, { DATABASE_URL: databaseUrl, ...(redis !== undefined && { REDIS_URL: redis }) }))
  })
}

/** POSTs `text` as it is, as JSON. */
export function postRaw(url: string, text: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
}

/** `"[[[…1…]]]"`: `levels` arrays inside one another. */
export function nestedArrays(levels: number): string {
  return `${'['.repeat(levels)}1${']'.repeat(levels)}`
}

/** `{"a":{"a":…1…}}`: `levels` objects inside one another. */
export function nestedObjects(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
}

/** The error object of a refusal, with its status. */
export async function refusal(res: Response): Promise<{ status: number; code: string; field: unknown; constraint: unknown }> {
  const body = (await res.json()) as { error: { code: string; details: { field?: string; constraint?: string } } }
  return { status: res.status, code: body.error.code, field: body.error.details.field, constraint: body.error.details.constraint }
}
