/**
 * The signature of a delivery (docs/webhooks.md, "Verifying a delivery"): HMAC-SHA256 under the
 * receiver's secret over `<unix seconds>.<raw body>`, sent as `Ganglion-Signature: t=<seconds>,v1=<hex>`.
 * The timestamp is inside the signed text, so a receiver that rejects old timestamps rejects a
 * replayed delivery too.
 *
 * ```ts
 * signatureHeader(secret, body, 1767225600) // 't=1767225600,v1=5f1c…'
 * ```
 */
import { createHmac, randomBytes } from 'node:crypto'

export const SIGNATURE_HEADER = 'Ganglion-Signature'
export const EVENT_HEADER = 'Ganglion-Event'
export const DELIVERY_HEADER = 'Ganglion-Delivery'

/** `whsec_` and 32 random bytes in hex: the form every signing secret has. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`
}

/** Hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`. */
export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${signature(secret, timestamp, body)}`
}
