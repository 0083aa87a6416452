// The orchestrator with authentication required and a scripted runner (a heuristic plan, steps that
// sleep 10 ms), on PGlite and (DATABASE_URL) on PostgreSQL with Redis (REDIS_URL), and clients that
// act as principals of two tenants (test/security/tenants-fixture.ts: `tenant-a-member`…).
import pino from 'pino'
import t, { type Test } from 'tap'
import { start } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'
import { DelayStepRunner } from '../fixtures/delay-step-runner.js'
import { heuristicPlanner } from '../fixtures/heuristic-planner.js'
import { testDetector } from '../fixtures/runner-node.js'
import { ADMIN_TOKEN, type Client, testVerifier } from '../security/tenants-fixture.js'
import { freshDatabase, SKIP_PG } from '../stores/pg-schema.js'

export { ADMIN_TOKEN, type Client, notFound, submit, waitFinal } from '../security/tenants-fixture.js'

/** Short retries and a receiver on loopback allowed: what these tests need. */
export const TEST_ENV = { WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '300', WEBHOOK_TIMEOUT: '2' }

export interface Service {
  base: string
  as(token: string): Client
}

async function startService(t: Test, env: Record<string, string>, databaseUrl?: string): Promise<Service> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    AUTH: 'required',
    ADMIN_TOKEN,
    DATA_DIR: 'memory://',
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_USER: '1000000',
    ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    ...(databaseUrl !== undefined && process.env.REDIS_URL !== undefined && { REDIS_URL: process.env.REDIS_URL }),
    ...env,
  })
  const scripted = { steps: new DelayStepRunner({ delayMs: 10 }), planner: heuristicPlanner(testDetector()) }
  const running = await start(config, { orchestrator: true }, pino({ level: 'silent' }), { verifiers: [testVerifier], scripted })
  t.teardown(() => running.close())
  const base = `http://127.0.0.1:${running.ports.orchestrator}`
  return {
    base,
    as(token) {
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
    },
  }
}

/** Runs `body` against the service on PGlite, and on PostgreSQL when DATABASE_URL is set. */
export function onEachBackend(name: string, env: Record<string, string>, body: (t: Test, service: Service) => Promise<void>): void {
  t.test(`${name} (PGlite)`, async (t) => body(t, await startService(t, env)))
  t.test(`${name} (PostgreSQL)`, { skip: SKIP_PG }, async (t) => {
    const databaseUrl = await freshDatabase(t, 'ganglion_webhooks')
    await body(t, await startService(t, env, databaseUrl))
  })
}

/** Polls `path` as `client` until `done` holds for its JSON (or the time runs out: then the last answer). */
export async function pollJson(client: Client, path: string, done: (body: any) => boolean, timeoutMs = 30_000): Promise<any> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const body = await (await client.get(path)).json()
    if (done(body) || Date.now() > until) return body
    await new Promise((r) => setTimeout(r, 50))
  }
}
