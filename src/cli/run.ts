/** Starts services from the environment's configuration and stops them cleanly on a signal. */
import { start, type Which } from '../app.js'
import { ConfigError, loadConfig } from '../config/load.js'
import { PortInUseError } from '../http/port-in-use.js'

export async function run(which: Which, overrides: Record<string, string> = {}): Promise<void> {
  let config
  try {
    config = loadConfig({ ...process.env, ...overrides })
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  let running
  try {
    running = await start(config, which)
  } catch (err) {
    // A combination of settings start() refuses (AUTH=required on a reflex layer without DATABASE_URL).
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(2)
    }
    if (err instanceof PortInUseError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(1)
    }
    throw err
  }
  let stopping = false
  const stop = (signal: string) => {
    // A second signal while draining: the operator wants it gone now.
    if (stopping) process.exit(1)
    stopping = true
    running.log.info({ signal }, 'shutting down')
    // A shutdown that hangs (a step that does not stop, a database that does not answer) ends
    // at the grace anyway; unref'd, the timer never keeps an otherwise finished process alive.
    const graceSeconds = config.shutdownGraceSeconds
    setTimeout(() => {
      running.log.warn({ signal, grace_seconds: graceSeconds }, 'shutdown passed its grace period: exiting')
      process.exit(1)
    }, graceSeconds * 1000).unref()
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}
