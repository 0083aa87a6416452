/**
 * The client address used for per-IP rate limits and logs.
 *
 * `X-Forwarded-For` is honoured only with `trustProxy`, because any client can send it; then the
 * left-most entry is the client as the first proxy saw it.
 */
export function clientIp(socketIp: string, forwardedFor: string | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const comma = forwardedFor.indexOf(',')
    const first = (comma === -1 ? forwardedFor : forwardedFor.slice(0, comma)).trim()
    if (first !== '') return first
  }
  return socketIp
}
