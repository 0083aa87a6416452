// The authenticator remembers a verified token for a while (an hour here) so a busy client pays
// for the check once; a JWT is remembered no longer than its `exp`, so an expired token is never
// taken from memory: past exp it is checked again, and past the clock tolerance refused.
import t from 'tap'
import { AuthenticationError, createAuthenticator } from '../../src/auth/authenticator.js'
import { createJwtVerifier, JWT_CLOCK_TOLERANCE_SECONDS } from '../../src/auth/jwt-verifier.js'
import { serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a token remembered by the authenticator is refused once expired', async (t) => {
  let clock = Date.now()
  const now = () => clock
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const jwts = createJwtVerifier(settings(idp.url), { now })
  let checks = 0
  const authenticate = createAuthenticator({
    mode: 'required',
    rememberMs: 3_600_000,
    now,
    verifiers: [
      {
        accepts: jwts.accepts,
        verify: (token) => {
          checks++
          return jwts.verify(token)
        },
      },
    ],
  })
  const exp = Math.floor(clock / 1000) + 30
  const bearer = `Bearer ${await sign(key, { exp })}`

  t.match(await authenticate(bearer), { id: 'jwt:alice', via: 'jwt' })
  t.equal(checks, 1)
  clock += 20_000
  const remembered = authenticate(bearer)
  t.notOk(remembered instanceof Promise, 'before exp: answered from memory')
  t.match(remembered, { id: 'jwt:alice' })
  t.equal(checks, 1)

  clock = exp * 1000
  const again = authenticate(bearer)
  t.ok(again instanceof Promise, 'at exp: not from memory, checked again')
  t.match(await again, { id: 'jwt:alice' }, 'still within the clock tolerance')
  t.equal(checks, 2)
  t.ok(authenticate(bearer) instanceof Promise, 'and not remembered past exp either')
  t.equal(checks, 3)

  clock = (exp + JWT_CLOCK_TOLERANCE_SECONDS + 1) * 1000
  await t.rejects(Promise.resolve(authenticate(bearer)), AuthenticationError, 'past the tolerance: refused')
  t.equal(checks, 4)
})
