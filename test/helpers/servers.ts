/** Starts real services on port 0 for a test, closed in the test's teardown. */
import pino from 'pino'
import { type Running, type StartOptions, start, type Which } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export async function startServices(
  t: Teardown,
  which: Which,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<Running> {
  // Embedded defaults even where CI exports DATABASE_URL / REDIS_URL: suites that want those say so.
  const config = loadConfig({ PORT: '0', REFLEX_PORT: '0', HOST: '127.0.0.1', DATA_DIR: 'memory://', ...env })
  const running = await start(config, which, pino({ level: 'silent' }), options)
  t.teardown(() => running.close())
  return running
}

/** The reflex layer alone, on embedded defaults (no Redis unless env names one). */
export async function reflexUrl(t: Teardown, env: Record<string, string> = {}): Promise<string> {
  const running = await startServices(t, { reflex: true }, env)
  return `http://127.0.0.1:${running.ports.reflex}`
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}

/** The orchestrator alone on an in-memory PGlite. */
export async function orchestratorUrl(t: Teardown, env: Record<string, string> = {}, options: StartOptions = {}): Promise<string> {
  const running = await startServices(t, { orchestrator: true }, env, options)
  return `http://127.0.0.1:${running.ports.orchestrator}`
}

/** Polls a task until `done(record)` or the time runs out (then returns the last record). */
export async function waitForTask(
  base: string,
  id: string,
  done: (task: { status: string }) => boolean,
  timeoutMs = 15_000,
): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const task = await (await fetch(`${base}/api/v1/tasks/${id}`)).json()
    if (done(task) || Date.now() > until) return task
    await new Promise((r) => setTimeout(r, 50))
  }
}

export const FINAL = ['completed', 'failed', 'cancelled', 'timed_out', 'rejected']
