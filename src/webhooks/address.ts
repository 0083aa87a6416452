/**
 * Where webhooks may be delivered: the address policy of `http_fetch` and registered arms
 * (src/arms/arm-address.ts: public unicast only) plus the networks WEBHOOK_ALLOW_PRIVATE names.
 * A webhook is a request the orchestrator makes from inside its network to a URL a client chose,
 * so loopback, private networks and the cloud metadata address are refused unless allowed.
 *
 * Checked when the URL is given (a subscription's `url`, a task's `webhook_url`: 400 naming the
 * field) and again at every delivery, where each connection resolves the name afresh and connects
 * only to an allowed address (`guardedAgent`): a name that later resolves elsewhere is refused then.
 *
 * ```ts
 * const policy = webhookAddressPolicy(['127.0.0.0/8'])
 * await checkWebhookUrl('http://169.254.169.254/', 'url', policy) // HttpError 400 on `url`
 * ```
 */
import type { LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { type ArmAddressPolicy, addressAllowed, armAddressPolicy } from '../arms/arm-address.js'
import { normalizeHost } from '../arms/executor/address-policy.js'
import { HttpError } from '../http/errors.js'

export const MAX_WEBHOOK_URL = 2048
/** A request waits at most this long for the URL's name to resolve; a slower name is refused. */
const RESOLVE_TIMEOUT_MS = 5000

export type WebhookAddressPolicy = ArmAddressPolicy

export function webhookAddressPolicy(
  allow: readonly string[] = [],
  lookup?: (host: string) => Promise<LookupAddress[]>,
): WebhookAddressPolicy {
  return lookup === undefined ? armAddressPolicy(allow) : armAddressPolicy(allow, lookup)
}

/** The URL's form: http(s), no credentials, at most MAX_WEBHOOK_URL characters. A 400 on `field` otherwise. */
export function parseWebhookUrl(text: string, field: string): URL {
  if (text.length > MAX_WEBHOOK_URL) throw HttpError.validation(field, `must be at most ${MAX_WEBHOOK_URL} characters`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw HttpError.validation(field, 'must be an absolute http or https URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw HttpError.validation(field, 'must be an absolute http or https URL')
  if (url.username !== '' || url.password !== '') throw HttpError.validation(field, 'must not carry credentials')
  return url
}

/** A 400 on `field` unless the URL has the right form and every address of its host is allowed. */
export async function checkWebhookUrl(text: string, field: string, policy: WebhookAddressPolicy): Promise<void> {
  const host = normalizeHost(parseWebhookUrl(text, field).hostname)
  let addresses: LookupAddress[]
  try {
    addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await withinTimeout(policy.lookup(host), RESOLVE_TIMEOUT_MS)
  } catch {
    throw HttpError.validation(field, 'must name a host that resolves', `Invalid request: ${field} names a host that does not resolve`)
  }
  if (addresses.length === 0) throw HttpError.validation(field, 'must name a host that resolves')
  if (addresses.some((a) => !addressAllowed(a.address, policy)))
    throw HttpError.validation(field, 'must resolve to public addresses only, or to networks WEBHOOK_ALLOW_PRIVATE names')
}

function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}
