// An identity provider for tests: signing keys made here (jose's generateKeyPair), their public
// halves served as a key set by a local HTTP server on port 0, and tokens signed with them.
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type CryptoKey, exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose'
import type { Test } from 'tap'
import { startServices } from '../helpers/servers.js'

export const ISSUER = 'https://idp.example.test/'
export const AUDIENCE = 'ganglion'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface SigningKey {
  alg: string
  kid: string
  privateKey: CryptoKey
  publicKey: CryptoKey
  /** The public half as the key set lists it. */
  jwk: JWK
}

export async function signingKey(alg = 'RS256', kid: string = randomUUID()): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  return { alg, kid, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } }
}

export async function publicPem(key: SigningKey): Promise<string> {
  return exportSPKI(key.publicKey)
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/**
 * A token signed by `key`: sub alice, tenant acme, the member role, this issuer and audience,
 * valid five minutes; `claims` override them (undefined removes one).
 */
export async function sign(key: SigningKey, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  const now = nowSeconds()
  const payload: Record<string, unknown> = {
    sub: 'alice',
    tenant: 'acme',
    roles: ['member'],
    iss: ISSUER,
    aud: AUDIENCE,
    iat: now,
    exp: now + 300,
    ...claims,
  }
  for (const name of Object.keys(payload)) if (payload[name] === undefined) delete payload[name]
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header }).sign(key.privateKey)
}

/** A token put together by hand: its header and payload base64url-encoded, the signature as given. */
export function handMade(header: object, payload: object, signature = ''): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  return `${part(header)}.${part(payload)}.${signature}`
}

export interface KeySetServer {
  /** Where the key set is served. */
  url: string
  /** Serves these keys from now on. */
  publish(...keys: SigningKey[]): void
  /** How many times the key set was fetched. */
  readonly fetches: number
  /** Stops answering: connections are refused from then on. */
  close(): Promise<void>
}

export async function serveKeySet(t: Teardown, ...keys: SigningKey[]): Promise<KeySetServer> {
  let published = keys
  let fetches = 0
  const server = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') {
      res.writeHead(404).end()
      return
    }
    fetches++
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published.map((k) => k.jwk) }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  t.teardown(() => (server.listening ? close() : undefined))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    publish: (...next) => {
      published = next
    },
    get fetches() {
      return fetches
    },
    close,
  }
}

/** The settings of a verifier for the key set at `jwksUrl`, this issuer and audience. */
export function settings(jwksUrl: string) {
  return { jwksUrl, issuer: ISSUER, audience: AUDIENCE }
}

/** The environment that makes the service take this identity provider's tokens. */
export function jwtEnv(jwksUrl: string, more: Record<string, string> = {}): Record<string, string> {
  return { AUTH: 'required', AUTH_JWKS_URL: jwksUrl, AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE, ...more }
}

/** The reflex service, taking this identity provider's tokens. */
export async function reflexTakingJwts(t: Teardown, env: Record<string, string>): Promise<string> {
  const running = await startServices(t, { reflex: true }, env)
  return `http://127.0.0.1:${running.ports.reflex}`
}

/** `POST /api/v1/check` (needs the check permission) with `token` as the bearer credential. */
export function check(reflex: string, token: string): Promise<Response> {
  return fetch(`${reflex}/api/v1/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ text: 'hello' }),
  })
}

/** Asserts that the reflex service, taking tokens of the key set at `jwksUrl`, answers `token` with the 401 error object. */
export async function refusedOverHttp(t: Test, jwksUrl: string, token: string, env: Record<string, string> = {}): Promise<void> {
  const res = await check(await reflexTakingJwts(t, jwtEnv(jwksUrl, env)), token)
  t.equal(res.status, 401, 'over HTTP: 401')
  t.equal(res.headers.get('www-authenticate'), 'Bearer', 'with the bearer challenge')
  t.match(await res.json(), {
    error: { code: 'UNAUTHORIZED', details: { field: 'authorization', constraint: 'must be a valid credential' } },
  })
}
