// Identity providers rotate their keys: a token naming a `kid` the cached key set lacks makes the
// verifier fetch the key set again (at most once per cooldown), so a key published since is
// taken without a restart, and a kid published nowhere stays refused.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('an unknown kid refetches the key set, and the newly published key is accepted', async (t) => {
  const old = await signingKey('RS256', 'k-2024')
  const next = await signingKey('ES256', 'k-2025')
  const idp = await serveKeySet(t, old)
  const verifier = createJwtVerifier(settings(idp.url), { cooldownMs: 0 })
  t.ok(await verifier.verify(await sign(old)), 'a token of the published key')
  t.equal(idp.fetches, 1)

  const rotated = await sign(next)
  t.equal(await verifier.verify(rotated), undefined, 'a key not published yet: refused')
  t.equal(idp.fetches, 2, 'the unknown kid made it look again')

  idp.publish(old, next)
  t.match(await verifier.verify(rotated), { principal: { id: 'jwt:alice' } }, 'published since: refetched and accepted')
  t.equal(idp.fetches, 3)
  t.ok(await verifier.verify(await sign(old)), 'the old key still verifies')
  t.ok(await verifier.verify(await sign(next)), 'and the new one')
  t.equal(idp.fetches, 3, 'known kids need no fetch')

  const forged = { ...(await signingKey('RS256', 'k-2024')) }
  t.equal(await verifier.verify(await sign(forged)), undefined, 'another key under a published kid: refused')
})

t.test('within the cooldown an unknown kid does not refetch', async (t) => {
  const known = await signingKey()
  const idp = await serveKeySet(t, known)
  const verifier = createJwtVerifier(settings(idp.url), { cooldownMs: 60_000 })
  t.ok(await verifier.verify(await sign(known)))
  for (let i = 0; i < 5; i++) t.equal(await verifier.verify(await sign(await signingKey())), undefined, 'a stranger')
  t.equal(idp.fetches, 1, 'strangers cannot make it fetch again and again')
})
