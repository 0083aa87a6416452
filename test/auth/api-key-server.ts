// The API key routes on a real server on port 0, over a given database, with the authenticator the
// service builds (ADMIN_TOKEN and the API key verifier), plus `GET /whoami` (tasks:read) answering
// the caller's principal: what a key is good for, without the rest of the orchestrator.
import pino from 'pino'
import { apiKeyVerifier } from '../../src/auth/api-keys.js'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import { createHttpApp } from '../../src/http/app.js'
import { registerApiKeyRoutes } from '../../src/orchestrator/api-key-routes.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlApiKeyStore } from '../../src/stores/sql-api-key-store.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export const ADMIN_TOKEN = 'test-admin-token-0123456789'
export const AS_ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` }

export interface KeyServer {
  url: string
  keys: SqlApiKeyStore
  /** Creates a key as the admin; its id and the key. */
  create(body: { tenant: string; role: string; name: string }): Promise<{ id: string; key: string }>
}

export async function keyServer(t: Teardown, sql: Sql): Promise<KeyServer> {
  const keys = new SqlApiKeyStore(sql)
  const app = createHttpApp({
    name: 'keys',
    bodyLimitBytes: 1 << 20,
    logger: pino({ level: 'silent' }),
    authenticate: createAuthenticator({ mode: 'required', adminToken: ADMIN_TOKEN, verifiers: [apiKeyVerifier(keys)] }),
  })
  registerApiKeyRoutes(app, { keys })
  app.route('GET', '/whoami', (ctx) => ({ body: ctx.principal }), { permission: 'tasks:read' })
  const port = await app.listen(0, '127.0.0.1')
  t.teardown(() => app.close())
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    keys,
    async create(body) {
      const res = await fetch(`${url}/api/v1/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...AS_ADMIN },
        body: JSON.stringify(body),
      })
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`)
      return (await res.json()) as { id: string; key: string }
    },
  }
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` }
}
