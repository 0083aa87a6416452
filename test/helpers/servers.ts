/** Starts real services on port 0 for a test, closed in the test's teardown. */
import pino from 'pino'
import { start, type Running, type Which } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export async function startServices(t: Teardown, which: Which, env: Record<string, string> = {}): Promise<Running> {
  const config = loadConfig({ PORT: '0', REFLEX_PORT: '0', HOST: '127.0.0.1', DATA_DIR: 'memory://', ...env })
  const running = await start(config, which, pino({ level: 'silent' }))
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
