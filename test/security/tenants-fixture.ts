// The whole orchestrator over HTTP with authentication required, on PGlite and (DATABASE_URL) on
// PostgreSQL with Redis (REDIS_URL), and clients that act as principals of two tenants:
//
//   tenant-a-member  a member of tenant `a`        tenant-b-member  a member of tenant `b`
//   tenant-a-service a gateway (`service`) of `a`  tenant-a-viewer  a viewer of `a`
//   ADMIN_TOKEN      the bootstrap admin (tenant `default`)
//
// A small credential verifier maps those tokens to principals, given to the service through
// `StartOptions.verifiers`; nothing else about authentication is stood in for.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import t, { type Test } from 'tap'
import { type Running, type StartOptions, start } from '../../src/app.js'
import type { CredentialVerifier } from '../../src/auth/authenticator.js'
import { ROLES, type Role } from '../../src/auth/principal.js'
import { loadConfig } from '../../src/config/load.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { FINAL } from '../helpers/servers.js'
import { freshDatabase, SKIP_PG } from '../stores/pg-schema.js'

export const ADMIN_TOKEN = `admin-${randomBytes(12).toString('hex')}`

const TOKEN = new RegExp(`^tenant-([a-z0-9]+)-(${ROLES.join('|')})$`)

/** `tenant-<tenant>-<role>` stands for `test:<tenant>:<role>`, of that tenant, with that one role. */
export const testVerifier: CredentialVerifier = {
  accepts: (token) => TOKEN.test(token),
  verify: async (token) => {
    const [, tenant, role] = TOKEN.exec(token)!
    return { id: `test:${tenant}:${role}`, tenant: tenant!, roles: [role as Role], via: 'api-key' }
  },
}

/** Requests as one principal; `headers` are added to every request. */
export interface Client {
  get(path: string, headers?: Record<string, string>): Promise<Response>
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>
  delete(path: string, headers?: Record<string, string>): Promise<Response>
}

export interface Service {
  base: string
  as(token: string): Client
  /**
   * Stops the service and opens its database, for what the API does not show (a task's stored
   * `user_id`). Only with `{ inspect: true }`.
   */
  inspect(): Promise<Sql>
}

export interface ServiceOptions {
  /** More configuration; a function when it needs the test first (a stand-in server to point at). */
  env?: Record<string, string> | ((t: Test) => Promise<Record<string, string>>)
  /** Keep the PGlite database on disk, so `inspect()` can open it after the service stops. */
  inspect?: boolean
}

/** A word no other run uses, so goals never meet a cached answer or an earlier run's rows. */
export function nonce(): string {
  return randomBytes(5).toString('hex')
}

async function startService(t: Test, env: Record<string, string>, dataDir: string, databaseUrl?: string): Promise<Service> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    AUTH: 'required',
    ADMIN_TOKEN,
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_USER: '1000000',
    ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    ...(databaseUrl !== undefined && process.env.REDIS_URL !== undefined && { REDIS_URL: process.env.REDIS_URL }),
    ...env,
  })
  const options: StartOptions = { verifiers: [testVerifier] }
  let running: Running | undefined = await start(config, { orchestrator: true }, pino({ level: 'silent' }), options)
  const stop = async () => {
    const r = running
    running = undefined
    await r?.close()
  }
  t.teardown(stop)
  const base = `http://127.0.0.1:${running.ports.orchestrator}`
  const as = (token: string): Client => {
    const auth = { authorization: `Bearer ${token}` }
    return {
      get: (path, headers = {}) => fetch(`${base}${path}`, { headers: { ...auth, ...headers } }),
      post: (path, body, headers = {}) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }),
      delete: (path, headers = {}) => fetch(`${base}${path}`, { method: 'DELETE', headers: { ...auth, ...headers } }),
    }
  }
  return {
    base,
    as,
    async inspect() {
      await stop()
      const sql = await openSql(databaseUrl === undefined ? { dataDir } : { databaseUrl, dataDir: 'unused', poolSize: 2 })
      t.teardown(() => sql.close())
      return sql
    },
  }
}

function envOf(t: Test, options: ServiceOptions): Promise<Record<string, string>> {
  const { env = {} } = options
  return typeof env === 'function' ? env(t) : Promise.resolve(env)
}

/** Runs `body` against the service on PGlite, and on PostgreSQL (with Redis when REDIS_URL is set) when DATABASE_URL is set. */
export function onEachBackend(name: string, body: (t: Test, service: Service) => Promise<void>, options: ServiceOptions = {}): void {
  t.test(`${name} (PGlite)`, async (t) => {
    let dataDir = 'memory://'
    if (options.inspect) {
      dataDir = await mkdtemp(join(tmpdir(), 'ganglion-tenancy-'))
      t.teardown(() => rm(dataDir, { recursive: true, force: true }))
    }
    await body(t, await startService(t, await envOf(t, options), dataDir))
  })
  t.test(`${name} (PostgreSQL)`, { skip: SKIP_PG }, async (t) => {
    const databaseUrl = await freshDatabase(t, 'ganglion_tenancy_http')
    await body(t, await startService(t, await envOf(t, options), 'unused', databaseUrl))
  })
}

/** Submits a task and returns its record (201 expected). */
export async function submit(
  client: Client,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  const res = await client.post('/api/v1/tasks', body, headers)
  if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as Record<string, any>
}

/** Polls the task as `client` until it is final. */
export async function waitFinal(client: Client, id: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const task = (await (await client.get(`/api/v1/tasks/${id}`)).json()) as Record<string, any>
    if (FINAL.includes(task.status) || Date.now() > until) return task
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * What a 404 tells: status, code, details and message with the id taken out. Another tenant's
 * resource must tell exactly what an id that never existed tells.
 */
export async function notFound(res: Response, id: string): Promise<Record<string, unknown>> {
  const body = (await res.json()) as { error: { code: string; message: string; details: unknown; request_id: string } }
  return {
    status: res.status,
    code: body.error.code,
    details: body.error.details,
    message: body.error.message.replaceAll(id, '<id>'),
    has_request_id: typeof body.error.request_id === 'string',
  }
}
