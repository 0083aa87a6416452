/**
 * Which hosts and addresses `http_fetch` may reach. A host must be on the allow-list (exact, or
 * `*.example.com` for any subdomain of example.com, not example.com itself); then every address it
 * resolves to must be public unicast. One private address among public ones refuses the whole
 * host: an attacker who controls DNS picks which one the connection would use.
 *
 * ```ts
 * hostAllowed('api.example.com', ['*.example.com']) // true
 * isPublicAddress('169.254.169.254')                // false: link-local (cloud metadata)
 * isPublicAddress('::ffff:10.0.0.1')                // false: IPv4-mapped private
 * ```
 */
import ipaddr from 'ipaddr.js'

const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3')

/** Lower case, no trailing dot, IPv6 brackets removed: the form both sides are compared in. */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, '')
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower
}

/** Checks a configured allow-list; throws at start-up on an entry that is no host name or IP. */
export function checkFetchAllow(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const host = normalizeHost(entry.trim())
    if (!HOST_PATTERN.test(host) && !ipaddr.isValid(host))
      throw new TypeError(`executor fetch allow-list: '${entry}' is not a host name or '*.domain'`)
    return host
  })
}

export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const h = normalizeHost(host)
  return allow.some((entry) => (entry.startsWith('*.') ? h.endsWith(entry.slice(1)) && h.length > entry.length - 1 : h === entry))
}

/**
 * True only for public unicast: not loopback, private, link-local, unique-local, CGNAT,
 * multicast, broadcast, unspecified, reserved, documentation, benchmarking, nor an IPv6 form
 * that carries an IPv4 address (mapped, NAT64, 6to4, Teredo).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address) // IPv4-mapped IPv6 becomes the IPv4 it carries
  if (parsed.range() !== 'unicast') return false
  if (parsed.kind() === 'ipv6') return (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)
  return true
}

/** A network as `ipaddr.parseCIDR` gives it: its address and prefix length. */
export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** CIDRs (`127.0.0.0/8`, `fd00::/8`) or single addresses; throws on an entry that is neither. */
export function parseNetworks(entries: readonly string[]): Network[] {
  return entries.map((entry) => {
    const text = entry.trim()
    if (ipaddr.isValid(text)) {
      const address = ipaddr.process(text)
      return [address, address.kind() === 'ipv4' ? 32 : 128]
    }
    try {
      return ipaddr.parseCIDR(text)
    } catch {
      throw new TypeError(`'${entry}' is not an address or a CIDR network`)
    }
  })
}

/** True when `address` (IPv4-mapped IPv6 read as its IPv4) lies in one of `networks`. */
export function inNetworks(address: string, networks: readonly Network[]): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
  return networks.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits))
}
