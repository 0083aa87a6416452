/**
 * The orchestrator in its own process, exactly as the composition root starts it:
 * `start(loadConfig(env), { orchestrator: true }, logger)` (HTTP API + task runner + pg-boss, the
 * built-in step runner). Configuration comes from the environment like the real service
 * (DATABASE_URL or DATA_DIR, PORT, HOST, RATE_LIMIT_*, LOG_LEVEL).
 *
 * Prints one line `{"ready":true,"port":N,"pid":P}` on stdout once listening; closes on SIGTERM
 * (exit 0) and exits by itself after BENCH_MAX_SECONDS (default 300) so a lost child cannot run on.
 *
 *   PORT=18200 HOST=127.0.0.1 DATA_DIR=memory:// node --import @tapjs/typescript/import bench/orchestrator/server.ts
 */
import pino from 'pino'
import { start } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'
import { countStatements, statementCounts } from './statement-counter.js'

// BENCH_STATEMENTS=1: count every SQL statement; SIGUSR2 prints the counts so far on stdout.
if (process.env.BENCH_STATEMENTS === '1') {
  countStatements()
  process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ statements: statementCounts() })}\n`))
}

const config = loadConfig(process.env)
const running = await start(config, { orchestrator: true }, pino({ level: 'silent' }))
process.stdout.write(`${JSON.stringify({ ready: true, port: running.ports.orchestrator, pid: process.pid })}\n`)

let closing = false
const close = async (code: number): Promise<void> => {
  if (closing) return
  closing = true
  const hard = setTimeout(() => process.exit(code), 5_000)
  hard.unref()
  try {
    await running.close()
  } finally {
    process.exit(code)
  }
}
process.on('SIGTERM', () => void close(0))
process.on('SIGINT', () => void close(0))
setTimeout(() => void close(2), Number(process.env.BENCH_MAX_SECONDS ?? 300) * 1000).unref()
// Keep the process alive while the server runs (the HTTP server keeps it too; this is belt and braces).
setInterval(() => {}, 60_000)
