// A verifier may return a principal with the moment its credential expires: the authenticator
// remembers it for `rememberMs` or until then, whichever comes first, and not at all when it has
// already expired. A plain principal is remembered for `rememberMs`.
import t from 'tap'
import { AuthenticationError, type CredentialVerifier, createAuthenticator } from '../../src/auth/authenticator.js'
import type { Principal } from '../../src/auth/principal.js'

const alice: Principal = { id: 'test:alice', tenant: 'acme', roles: ['member'], via: 'jwt' }

t.test('a credential is remembered no longer than it is valid', async (t) => {
  let clock = 1_000_000
  const expiries: Record<string, number | undefined> = { soon: clock + 300, plain: undefined }
  let checks = 0
  const verifier: CredentialVerifier = {
    accepts: () => true,
    async verify(token) {
      checks++
      const expiresAt = expiries[token]
      if (expiresAt !== undefined && expiresAt <= clock) return undefined
      return expiresAt === undefined ? alice : { principal: alice, expiresAt }
    },
  }
  const authenticate = createAuthenticator({ mode: 'required', verifiers: [verifier], rememberMs: 1_000, now: () => clock })

  t.same(await authenticate('Bearer plain'), alice, 'a plain principal')
  t.same(await authenticate('Bearer soon'), alice, 'one with an expiry comes out as the principal alone')
  t.equal(checks, 2)
  clock += 299
  t.same(authenticate('Bearer soon'), alice, 'remembered until its expiry')
  t.same(authenticate('Bearer plain'), alice)
  t.equal(checks, 2)
  clock += 1
  await t.rejects(Promise.resolve(authenticate('Bearer soon')), AuthenticationError, 'at its expiry: asked again, refused')
  t.same(authenticate('Bearer plain'), alice, 'the plain one for the full second')
  clock += 700
  t.ok(authenticate('Bearer plain') instanceof Promise, 'and no longer')
  t.equal(checks, 4)

  // A verifier that (with clock tolerance) takes a token just past its expiry: taken, not remembered.
  verifier.verify = async () => ({ principal: alice, expiresAt: clock - 1 })
  t.same(await authenticate('Bearer late'), alice)
  t.ok(authenticate('Bearer late') instanceof Promise, 'asked again at once')
})

t.test('past 10,000 remembered credentials the least recently used goes first', async (t) => {
  const asked: string[] = []
  const verifier: CredentialVerifier = {
    accepts: () => true,
    async verify(token) {
      asked.push(token)
      return alice
    },
  }
  const authenticate = createAuthenticator({ mode: 'required', verifiers: [verifier], rememberMs: 60_000 })
  await authenticate('Bearer hot')
  await authenticate('Bearer cold')
  for (let i = 0; i < 9_999; i++) {
    await authenticate(`Bearer other-${i}`)
    if (i % 1000 === 0) t.same(authenticate('Bearer hot'), alice) // used again: stays
  }
  asked.length = 0
  t.same(authenticate('Bearer hot'), alice, 'the credential in use is still remembered')
  t.ok(authenticate('Bearer cold') instanceof Promise, 'the one not used since is asked again')
  t.same(asked, ['cold'])
})
