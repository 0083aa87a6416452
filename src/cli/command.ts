/**
 * What every client command shares: the global options (`--url`/GANGLION_URL,
 * `--key`/GANGLION_API_KEY, `--json`), the client they make, and how a command ends: its
 * CliError's message on stderr (`error: CODE: message` for the service's errors) and its exit code.
 */
import { ApiClient, CliError } from './client.js'
import { EXIT } from './exit-codes.js'

export const DEFAULT_URL = 'http://127.0.0.1:8000'

export interface GlobalOptions {
  url?: string
  key?: string
  json?: boolean
}

/** The service's address: the option, else GANGLION_URL, else the default; an http(s) URL or a usage error. */
export function serviceUrl(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  const given = opts.url ?? (env.GANGLION_URL || DEFAULT_URL)
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new CliError(`--url ${JSON.stringify(given)}: must be an http:// or https:// URL`, EXIT.USAGE)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`--url ${JSON.stringify(given)}: must be an http:// or https:// URL`, EXIT.USAGE)
  if (url.username !== '' || url.password !== '')
    throw new CliError('--url: must not carry a user or password; pass the API key with --key or GANGLION_API_KEY', EXIT.USAGE)
  return url.href
}

/** The API key: the option, else GANGLION_API_KEY; none when neither is set (a service with AUTH=off). */
export function apiKey(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const key = opts.key ?? (env.GANGLION_API_KEY || undefined)
  if (key === undefined) return undefined
  for (const ch of key) {
    const c = ch.charCodeAt(0)
    if (c <= 0x20 || c >= 0x7f) throw new CliError('--key: must be printable ASCII with no spaces', EXIT.USAGE)
  }
  return key
}

export function clientOf(opts: GlobalOptions): ApiClient {
  return new ApiClient({ url: serviceUrl(opts), key: apiKey(opts) })
}

/** Runs a command (its result, when a number, is the exit code); a CliError ends it with its message and exit code, anything else is a bug and is thrown. */
export async function handle(fn: () => Promise<unknown>): Promise<void> {
  try {
    const code = await fn()
    process.exitCode = typeof code === 'number' ? code : EXIT.OK
  } catch (err) {
    if (!(err instanceof CliError)) throw err
    process.stderr.write(`error: ${err.message}\n`)
    process.exitCode = err.exitCode
  }
}

/** `--json`: one JSON value on stdout, nothing else. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`)
}

/** A usage error unless `text` is a whole number in [min, max]. */
export function wholeNumber(option: string, text: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max)
    throw new CliError(`${option} ${JSON.stringify(text)}: must be a whole number from ${min} to ${max}`, EXIT.USAGE)
  return Number(text)
}
