// A real HTTP server on a loopback address, port 0, closed at the end of the test. The fetch tests
// need one because nothing else is reachable from these machines, and loopback is exactly what
// the executor refuses: the tests admit it through the `testAllowAddresses` seam, and resolve
// made-up names to it through the `lookup` seam.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import type { Test } from 'tap'

import type { LookupAll } from '../../../src/arms/executor/http-fetch-tool.js'

export async function loopbackServer(
  t: Test,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<{ port: number; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = []
  const server = createServer((req, res) => {
    requests.push(req)
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { port: (server.address() as AddressInfo).port, requests }
}

/** Resolves the given names only; anything else fails as DNS would. */
export function fakeDns(names: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = []
  const lookup = async (hostname: string) => {
    calls.push(hostname)
    const addresses = names[hostname]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return Object.assign(lookup, { calls })
}
