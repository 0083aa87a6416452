// The AUTH_* variables of identity-provider tokens are checked at start, together and with the
// rest: one key source (a key set URL or a public key, not both), an issuer and an audience with
// it, asymmetric algorithms only, a public key that parses and fits them.
import { generateKeyPairSync } from 'node:crypto'
import t from 'tap'
import { ConfigError, loadConfig } from '../../src/config/load.js'

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) return err.problems
    throw err
  }
  return []
}

const ed25519 = generateKeyPairSync('ed25519')
const PEM = ed25519.publicKey.export({ type: 'spki', format: 'pem' }).toString()
const JWKS_URL = 'https://idp.example.com/.well-known/jwks.json'
const WITH = { AUTH_ISSUER: 'https://idp.example.com/', AUTH_AUDIENCE: 'ganglion' }

t.test('reads the settings into config.jwt, with the defaults', async (t) => {
  t.equal(loadConfig({}).jwt, undefined, 'none configured: no JWTs')
  t.same(loadConfig({ AUTH_JWKS_URL: JWKS_URL, ...WITH }).jwt, {
    jwksUrl: JWKS_URL,
    publicKey: undefined,
    issuer: 'https://idp.example.com/',
    audience: 'ganglion',
    algorithms: ['RS256', 'ES256', 'EdDSA'],
    tenantClaim: 'tenant',
    rolesClaim: 'roles',
  })
  t.match(
    loadConfig({
      AUTH_PUBLIC_KEY: PEM,
      ...WITH,
      AUTH_ALGORITHMS: 'EdDSA,Ed25519',
      AUTH_TENANT_CLAIM: 'https://example.com/tenant',
      AUTH_ROLES_CLAIM: 'realm_access.roles',
    }).jwt,
    {
      jwksUrl: undefined,
      publicKey: PEM,
      algorithms: ['EdDSA', 'Ed25519'],
      tenantClaim: 'https://example.com/tenant',
      rolesClaim: 'realm_access.roles',
    },
  )
  t.ok(loadConfig({ AUTH_PUBLIC_KEY: JSON.stringify(ed25519.publicKey.export({ format: 'jwk' })), ...WITH }).jwt, 'a JWK')
})

t.test('refuses each inconsistent or bad setting, naming it', async (t) => {
  const cases: [Record<string, string>, string[]][] = [
    [
      { AUTH_JWKS_URL: JWKS_URL, AUTH_PUBLIC_KEY: PEM, ...WITH },
      ['AUTH_JWKS_URL and AUTH_PUBLIC_KEY: set only one, the key set URL or the public key'],
    ],
    [
      { AUTH_JWKS_URL: JWKS_URL },
      ['AUTH_ISSUER=(unset): required with AUTH_JWKS_URL', 'AUTH_AUDIENCE=(unset): required with AUTH_JWKS_URL'],
    ],
    [{ AUTH_PUBLIC_KEY: PEM, AUTH_ISSUER: 'x' }, ['AUTH_AUDIENCE=(unset): required with AUTH_PUBLIC_KEY']],
    [
      { ...WITH, AUTH_ROLES_CLAIM: 'groups' },
      ['AUTH_ISSUER, AUTH_AUDIENCE, AUTH_ROLES_CLAIM: set, but tokens can only be checked with AUTH_JWKS_URL or AUTH_PUBLIC_KEY'],
    ],
    [{ AUTH_JWKS_URL: 'idp.example.com/jwks', ...WITH }, ['AUTH_JWKS_URL="idp.example.com/jwks": must be an http:// or https:// URL']],
    [
      { AUTH_JWKS_URL: JWKS_URL, ...WITH, AUTH_ALGORITHMS: 'RS256,HS256,none' },
      ['AUTH_ALGORITHMS="RS256,HS256,none": HS256, none never accepted (none and HMAC are refused)'],
    ],
    [
      { AUTH_JWKS_URL: JWKS_URL, ...WITH, AUTH_ALGORITHMS: 'RS256,XY999' },
      [
        'AUTH_ALGORITHMS="RS256,XY999": XY999 unknown; must be among RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519',
      ],
    ],
    [
      { AUTH_JWKS_URL: JWKS_URL, ...WITH, AUTH_ALGORITHMS: 'RS256, ES256' },
      ['AUTH_ALGORITHMS="RS256, ES256": must be algorithm names separated by commas'],
    ],
    [
      { AUTH_PUBLIC_KEY: 'not a key', ...WITH },
      ['AUTH_PUBLIC_KEY=(hidden): must be a PEM public key (-----BEGIN PUBLIC KEY-----) or a JWK'],
    ],
    [
      { AUTH_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----', ...WITH },
      ['AUTH_PUBLIC_KEY=(hidden): is not a usable PEM public key'],
    ],
    [{ AUTH_PUBLIC_KEY: '{"kty":"RSA"', ...WITH }, ['AUTH_PUBLIC_KEY=(hidden): is not valid JSON']],
    [
      { AUTH_PUBLIC_KEY: ed25519.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), ...WITH },
      ['AUTH_PUBLIC_KEY=(hidden): is a private key'],
    ],
    [
      { AUTH_PUBLIC_KEY: JSON.stringify(ed25519.privateKey.export({ format: 'jwk' })), ...WITH },
      ['AUTH_PUBLIC_KEY=(hidden): is a private or secret key'],
    ],
    [
      { AUTH_PUBLIC_KEY: PEM, ...WITH, AUTH_ALGORITHMS: 'RS256,ES256' },
      ['AUTH_PUBLIC_KEY=(hidden): a key of type OKP verifies none of RS256, ES256'],
    ],
    [
      {
        AUTH_PUBLIC_KEY: generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        ...WITH,
      },
      ['AUTH_PUBLIC_KEY=(hidden): is an RSA key under 2048 bits'],
    ],
    [
      { AUTH_PUBLIC_KEY: generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'pem' }).toString(), ...WITH },
      ['AUTH_PUBLIC_KEY=(hidden): is a x25519 key'],
    ],
  ]
  for (const [env, problems] of cases) {
    const found = problemsOf(env)
    t.equal(found.length, problems.length, JSON.stringify(found))
    for (const [i, p] of problems.entries()) t.ok(found[i]?.startsWith(p), `${found[i]} starts with ${p}`)
  }
})

t.test('lists the JWT problems with every other one, never echoing the key', async (t) => {
  const secret = ed25519.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const err = t.throws(() => loadConfig({ PORT: 'x', AUTH_PUBLIC_KEY: secret, AUTH_JWKS_URL: JWKS_URL, AUTH_ALGORITHMS: 'HS256' }))
  t.ok(err instanceof ConfigError)
  const problems = (err as ConfigError).problems
  t.equal(problems.length, 6, problems.join('\n'))
  t.notMatch((err as Error).message, /PRIVATE KEY|MC4CAQ/, 'the key is never shown')
})
