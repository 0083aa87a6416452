/**
 * The `http_fetch` tool: GET or HEAD of an allow-listed http(s) URL. The name is resolved here,
 * every address checked (address-policy.ts), and the connection pinned to the checked address
 * through the agent's `lookup`, so a second DNS answer (rebinding) is never used. Redirects are not
 * followed by the client: each hop, at most `fetchRedirects`, goes through the same checks, and the
 * caller's headers go no further than the origin it named. No cookies are kept and no credentials
 * are sent: URLs with user info and credential headers are refused.
 *
 * ```ts
 * await fetchTool.run({ url: 'https://api.example.com/v1/items' }, 30_000, signal)
 * // → { url, status: 200, headers: { 'content-type': 'application/json' }, body: '[…]', truncated: false }
 * ```
 */

import type { LookupAddress } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'

import { Agent, request } from 'undici'

import { ArmError } from '../contract.js'
import { untilAborted } from '../until-aborted.js'
import { abortError } from './abort.js'
import { hostAllowed, isPublicAddress, normalizeHost } from './address-policy.js'
import * as check from './input.js'
import type { ExecutorLimits } from './limits.js'

export interface FetchOutput {
  url: string
  status: number
  headers: Record<string, string>
  body: string
  truncated: boolean
}

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>

export interface FetchPolicy {
  allow: readonly string[]
  lookup: LookupAll
  /** Test seam: addresses admitted although not public. Production never sets it. */
  testAllowAddresses: readonly string[]
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const KEPT_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-language',
  'content-encoding',
  'last-modified',
  'etag',
  'cache-control',
  'expires',
  'date',
  'location',
]
/** Credentials, cookies and what the client must own itself. */
const REFUSED_REQUEST_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'cookie2',
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'accept-encoding',
])
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,64}$/

export const defaultLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

export class HttpFetchTool {
  constructor(
    private readonly policy: FetchPolicy,
    private readonly limits: Readonly<ExecutorLimits>,
  ) {}

  async run(input: Record<string, unknown>, stepTimeoutMs: number, signal: AbortSignal): Promise<FetchOutput> {
    check.refuseUnknown(input, ['url', 'method', 'headers', 'max_bytes'])
    let url = parseUrl(check.requiredString(input, 'url', 8192))
    const method = check.optionalString(input, 'method', 8) ?? 'GET'
    if (method !== 'GET' && method !== 'HEAD') throw check.invalid("'method' must be GET or HEAD")
    let headers = requestHeaders(input.headers)
    const maxBytes = check.optionalInteger(input, 'max_bytes', 1, this.limits.fetchMaxBytes) ?? this.limits.fetchDefaultBytes
    if (this.policy.allow.length === 0) throw new ArmError('HOST_NOT_ALLOWED', 'http_fetch is disabled: no host is allowed')

    const timeoutMs = Math.min(this.limits.fetchTimeoutMs, stepTimeoutMs)
    const timeout = AbortSignal.timeout(timeoutMs)
    const combined = AbortSignal.any([signal, timeout])
    try {
      for (let hop = 0; ; hop++) {
        const address = await this.checkedAddress(url, combined)
        const response = await this.fetchOnce(url, method, headers, address, maxBytes, combined)
        const location = response.headers.location
        if (!REDIRECTS.has(response.status) || location === undefined) return response
        if (hop >= this.limits.fetchRedirects) {
          throw new ArmError(
            'TOO_MANY_REDIRECTS',
            `more than ${this.limits.fetchRedirects} redirects, the last to ${location.slice(0, 200)}`,
          )
        }
        const next = parseUrl(new URL(location, url).href)
        // The caller's headers were meant for the origin it named, not wherever that redirects.
        if (next.origin !== url.origin) headers = {}
        url = next
      }
    } catch (err) {
      if (signal.aborted) throw abortError(signal)
      if (timeout.aborted) throw new ArmError('FETCH_TIMEOUT', `the fetch took longer than ${timeoutMs} ms`)
      if (err instanceof ArmError) throw err
      throw new ArmError('FETCH_FAILED', `the fetch failed: ${(err as Error).message}`)
    }
  }

  /**
   * Host on the allow-list, every resolved address public; returns the one to connect to. The
   * resolver takes no signal, so a hung lookup is left behind when `signal` (cancel or timeout) fires.
   */
  private async checkedAddress(url: URL, signal: AbortSignal): Promise<LookupAddress> {
    const host = normalizeHost(url.hostname)
    if (!hostAllowed(host, this.policy.allow)) throw new ArmError('HOST_NOT_ALLOWED', `host '${host}' is not on the fetch allow-list`)
    const family = isIP(host)
    let addresses: LookupAddress[]
    try {
      addresses = family !== 0 ? [{ address: host, family }] : await untilAborted(this.policy.lookup(host), signal)
    } catch (err) {
      if (signal.aborted) throw err
      throw new ArmError('FETCH_FAILED', `cannot resolve '${host}': ${(err as Error).message}`)
    }
    if (addresses.length === 0) throw new ArmError('FETCH_FAILED', `'${host}' has no address`)
    for (const { address } of addresses) {
      if (!isPublicAddress(address) && !this.policy.testAllowAddresses.includes(address)) {
        throw new ArmError('ADDRESS_NOT_ALLOWED', `host '${host}' resolves to ${address}, which is not a public address`)
      }
    }
    return addresses[0]!
  }

  private async fetchOnce(
    url: URL,
    method: 'GET' | 'HEAD',
    headers: Record<string, string>,
    pinned: LookupAddress,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<FetchOutput> {
    // One agent per hop, whose lookup can only answer the address checked above.
    const agent = new Agent({
      connect: {
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, [pinned])
          else callback(null, pinned.address, pinned.family)
        },
      },
    })
    try {
      const response = await request(url, {
        method,
        headers: { 'accept-encoding': 'identity', 'user-agent': 'ganglion-executor', ...headers },
        dispatcher: agent,
        signal,
      })
      const chunks: Buffer[] = []
      let size = 0
      let truncated = false
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const room = maxBytes - size
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
        size += Math.min(chunk.length, room)
        if (chunk.length > room) {
          truncated = true
          response.body.destroy()
          break
        }
      }
      return {
        url: url.href,
        status: response.statusCode,
        headers: keptHeaders(response.headers),
        body: new TextDecoder('utf-8').decode(Buffer.concat(chunks)),
        truncated,
      }
    } finally {
      void agent.destroy().catch(() => {})
    }
  }
}

function parseUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw check.invalid(`'url' is not a valid URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw check.invalid(`'url' must be http or https, not ${url.protocol}`)
  if (url.username || url.password) throw check.invalid("'url' must not carry credentials")
  return url
}

function requestHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw check.invalid("'headers' must be an object of strings")
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length > 32) throw check.invalid("'headers' has more than 32 entries")
  const headers: Record<string, string> = {}
  for (const [rawName, v] of entries) {
    const name = rawName.toLowerCase()
    if (!HEADER_NAME.test(name)) throw check.invalid(`header name '${rawName.slice(0, 64)}' is not valid`)
    if (REFUSED_REQUEST_HEADERS.has(name) || name.startsWith('proxy-')) throw check.invalid(`header '${name}' may not be set`)
    if (typeof v !== 'string' || v.length > 4096 || /[\r\n\0]/.test(v)) throw check.invalid(`header '${name}' must be a single-line string`)
    headers[name] = v
  }
  return headers
}

function keptHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = headers[name]
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return kept
}
