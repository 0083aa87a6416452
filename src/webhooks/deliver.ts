/**
 * One attempt of one delivery: a signed POST of the delivery's fixed body, within a time limit,
 * to an address the policy allows (resolved afresh for this connection), reading at most a few
 * KiB of the answer. What the answer means (docs/webhooks.md, "Retries"):
 * - 2xx: delivered;
 * - 408, 429 and 5xx, a timeout, a refused or reset connection: try again later;
 * - any other status (a 410 from a receiver that is gone, a 400, a redirect, which is not
 *   followed), and an address the policy refuses: give up at once.
 *
 * ```ts
 * const outcome = await attempt(delivery, { agent, timeoutMs: 10_000 }, new Date())
 * // { outcome: 'retry', statusCode: 503, error: null, durationMs: 42 }
 * ```
 */
import { type Dispatcher, request } from 'undici'
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from './sign.js'
import type { PendingDelivery } from './webhook-store.js'

/** Bytes of a receiver's answer read before the connection is dropped; the body is never kept. */
const RESPONSE_CAP = 4096
const MAX_ERROR = 300

export interface AttemptOptions {
  agent: Dispatcher
  timeoutMs: number
}

export interface AttemptOutcome {
  outcome: 'delivered' | 'retry' | 'give_up'
  statusCode: number | null
  error: string | null
  durationMs: number
}

export function outcomeOf(status: number): AttemptOutcome['outcome'] {
  if (status >= 200 && status < 300) return 'delivered'
  if (status === 408 || status === 429 || status >= 500) return 'retry'
  return 'give_up'
}

export async function attempt(delivery: PendingDelivery, options: AttemptOptions, now: Date): Promise<AttemptOutcome> {
  const started = performance.now()
  const timestamp = Math.floor(now.getTime() / 1000)
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const elapsed = () => performance.now() - started
  try {
    const response = await request(delivery.url, {
      method: 'POST',
      dispatcher: options.agent,
      signal: timeout,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // No connection is kept for the next attempt: each one resolves the name and checks its addresses afresh.
      reset: true,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'ganglion-webhooks',
        [SIGNATURE_HEADER]: signatureHeader(delivery.secret, delivery.body, timestamp),
        [EVENT_HEADER]: delivery.event,
        [DELIVERY_HEADER]: delivery.id,
      },
      body: delivery.body,
    })
    await drain(response.body)
    const status = response.statusCode
    return { outcome: outcomeOf(status), statusCode: status, error: null, durationMs: elapsed() }
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } }
    const refused = e.code === 'ADDRESS_NOT_ALLOWED' || e.cause?.code === 'ADDRESS_NOT_ALLOWED'
    const message = timeout.aborted ? `no answer within ${options.timeoutMs} ms` : describe(err)
    return { outcome: refused ? 'give_up' : 'retry', statusCode: null, error: message.slice(0, MAX_ERROR), durationMs: elapsed() }
  }
}

/** Reads up to RESPONSE_CAP bytes, then drops the rest with the connection. */
async function drain(body: Dispatcher.ResponseData['body']): Promise<void> {
  let read = 0
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      read += chunk.length
      if (read >= RESPONSE_CAP) break
    }
  } catch {
    // The status is what counts; a body cut short changes nothing.
  } finally {
    body.destroy()
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const cause = e.cause?.code ?? e.cause?.message
  return [e.code, e.message, cause].filter((part) => typeof part === 'string' && part !== '').join(': ') || 'the request failed'
}
