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
    if (stopping) return
    stopping = true
    running.log.info({ signal }, 'shutting down')
    // A second signal, or a shutdown that hangs, ends the process anyway.
    setTimeout(() => process.exit(1), 15_000).unref()
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}
