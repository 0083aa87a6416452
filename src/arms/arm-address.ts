/**
 * Which addresses a registered arm may have: the executor's `http_fetch` policy (public unicast
 * only, address-policy.ts) plus the networks an operator allows with `ARM_URL_ALLOW_PRIVATE`. A
 * registered arm receives task data and is called from inside the orchestrator's network, so a URL
 * naming loopback, a private network or the cloud metadata address would turn registration into a
 * way to reach what the orchestrator can reach.
 *
 * ```ts
 * const policy = armAddressPolicy(['127.0.0.0/8'])
 * await checkArmUrl('http://169.254.169.254/', policy) // HttpError 400 on `url`
 * const agent = guardedAgent(policy)                     // connects to allowed addresses only
 * ```
 *
 * Checked twice: at registration (the name resolved, every address it has allowed: one refused
 * address among allowed ones refuses it, since DNS picks which one a connection uses), and at
 * every connection to the arm (the addresses resolved for that connection, so a name that later
 * resolves elsewhere is refused then, as `ADDRESS_NOT_ALLOWED`).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { Agent } from 'undici'
import { HttpError } from '../http/errors.js'
import { inNetworks, isPublicAddress, type Network, normalizeHost, parseNetworks } from './executor/address-policy.js'

export interface ArmAddressPolicy {
  /** Networks beyond public unicast that arms may be on. */
  allow: readonly Network[]
  /** Resolves a host name to all its addresses (default: the system resolver). */
  lookup: (host: string) => Promise<LookupAddress[]>
}

export function armAddressPolicy(allow: readonly string[] = [], lookup = systemLookup): ArmAddressPolicy {
  return { allow: parseNetworks(allow), lookup }
}

export function addressAllowed(address: string, policy: ArmAddressPolicy): boolean {
  return isPublicAddress(address) || inNetworks(address, policy.allow)
}

/** A 400 on `url` unless every address of its host is allowed. */
export async function checkArmUrl(url: string, policy: ArmAddressPolicy): Promise<void> {
  const host = normalizeHost(new URL(url).hostname)
  let addresses: LookupAddress[]
  try {
    addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await policy.lookup(host)
  } catch (err) {
    throw HttpError.validation('url', 'must name a host that resolves', `Cannot resolve '${host}': ${(err as Error).message}`)
  }
  if (addresses.length === 0) throw HttpError.validation('url', 'must name a host that resolves', `'${host}' has no address`)
  const refused = addresses.find((a) => !addressAllowed(a.address, policy))
  if (refused !== undefined)
    throw HttpError.validation(
      'url',
      'must resolve to public addresses only, or to networks ARM_URL_ALLOW_PRIVATE names',
      `'${host}' resolves to ${refused.address}, which is not a public address`,
    )
}

/** The error a refused connection fails with; `code` tells it apart from an unreachable arm. */
export class AddressNotAllowed extends Error {
  readonly code = 'ADDRESS_NOT_ALLOWED'
}

/**
 * The refusal for a URL whose host is an address not allowed; undefined for an allowed address or
 * a name (names are checked as each connection resolves them: `guardedAgent`).
 */
export function refusedLiteral(url: string, policy: ArmAddressPolicy): AddressNotAllowed | undefined {
  const host = normalizeHost(new URL(url).hostname)
  if (isIP(host) === 0 || addressAllowed(host, policy)) return undefined
  return new AddressNotAllowed(`${host} is not an address arms may have`)
}

/** An HTTP dispatcher whose every connection resolves its host and goes only to allowed addresses. */
export function guardedAgent(policy: ArmAddressPolicy): Agent {
  return new Agent({
    connect: {
      lookup: (host, options, callback) => {
        const answer = (err: Error | null, addresses: LookupAddress[]) => {
          if (err !== null) return callback(err, '', 0)
          const refused = addresses.find((a) => !addressAllowed(a.address, policy))
          if (refused !== undefined || addresses.length === 0)
            return callback(new AddressNotAllowed(`'${host}' resolves to ${refused?.address ?? 'nothing'}, which is not allowed`), '', 0)
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
          else callback(null, addresses[0]!.address, addresses[0]!.family)
        }
        const family = isIP(host)
        if (family !== 0) return answer(null, [{ address: host, family }])
        policy.lookup(host).then(
          (addresses) => answer(null, addresses),
          (err: Error) => answer(err, []),
        )
      },
    },
  })
}

function systemLookup(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))))
}
