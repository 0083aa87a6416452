/**
 * Shared by the orchestrator benches: the machine line, percentiles, CPU of a child process, and a
 * fresh database for every measurement (PostgreSQL: the `public` and `pgboss` schemas dropped and
 * recreated; PGlite: a new in-memory instance each time, nothing to reset).
 */
import { execSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import pg from 'pg'

export interface Machine {
  date: string
  commit: string
  nproc: number
  cpu: string
  node: string
  loadavg: string
}

export function machine(): Machine {
  let commit = 'unknown'
  try {
    commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim()
    if (execSync('git status --porcelain -- src', { encoding: 'utf8' }).trim() !== '') commit += ' (src modified)'
  } catch {
    /* not a checkout */
  }
  return {
    date: new Date().toISOString(),
    commit,
    nproc: Number(execSync('nproc', { encoding: 'utf8' }).trim()),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadavg: loadNow(),
  }
}

export function loadNow(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]!
}

export interface Summary {
  n: number
  p50: number
  p90: number
  p95: number
  p99: number
  max: number
  mean: number
}

export function summarise(values: readonly number[]): Summary {
  const s = [...values].sort((a, b) => a - b)
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s[s.length - 1] ?? NaN,
    mean,
  }
}

/** user+system CPU seconds of a process so far (from /proc/<pid>/stat), for "server CPU %". */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[11] = utime, fields[12] = stime (0-based after the command), in clock ticks (100/s here)
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}

/** Drops and recreates what the service and pg-boss create, so every measurement starts empty. */
export async function resetPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    // Connections of a killed child may linger for a moment; end them so the drops do not wait.
    await client.query(`select pg_terminate_backend(pid) from pg_stat_activity
                         where datname = current_database() and pid <> pg_backend_pid()`)
    await client.query('drop schema if exists pgboss cascade')
    await client.query('drop schema if exists public cascade')
    await client.query('create schema public')
  } finally {
    await client.end()
  }
}

/** Rows in the service's tables, to check a run did what it claims. */
export async function countRows(databaseUrl: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: string }>(query)
    return Number(rows[0]?.n ?? 0)
  } finally {
    await client.end()
  }
}

export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : fallback
}

export function flag(name: string): boolean {
  return process.argv.includes(`--${name}`)
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

export function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '–'
}
