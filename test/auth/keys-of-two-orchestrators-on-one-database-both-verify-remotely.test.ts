import type { JWK } from 'jose'
import pino from 'pino'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { remoteVerifier } from '../../src/auth/capability-verifier.js'
import { createHttpApp } from '../../src/http/app.js'
import { registerArmsRoutes } from '../../src/orchestrator/arms-routes.js'
import { onEachSql } from './each-sql.js'

onEachSql('keys of two orchestrators on one database both verify remotely', async (t, connect) => {
  const a = await CapabilityIssuer.open({ sql: await connect() })
  const b = await CapabilityIssuer.open({ sql: await connect() })
  t.teardown(() => Promise.all([a.close(), b.close()]))
  t.not(a.kid, b.kid)

  for (const issuer of [a, b]) {
    const kids = (await issuer.jwks()).keys.map((k: JWK) => k.kid).sort()
    t.same(kids, [a.kid, b.kid].sort(), 'each serves both public keys')
    for (const key of (await issuer.jwks()).keys) {
      t.equal(key.d, undefined, 'no private part')
      t.match(key, { kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' })
    }
  }

  // an orchestrator-like server: only A serves the key set, yet B's tokens verify through it
  // (the arms routes other than the key set need a principal: auth off serves them to anyone)
  const app = createHttpApp({
    name: 'orchestrator',
    bodyLimitBytes: 1 << 20,
    logger: pino({ level: 'silent' }),
    authenticate: createAuthenticator({ mode: 'off' }),
  })
  registerArmsRoutes(app, {
    registry: {
      list: async () => [],
      register: async () => {
        throw new Error('unused')
      },
    },
    issuer: a,
  })
  const url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`
  t.teardown(() => app.close())
  const res = await fetch(`${url}/.well-known/jwks.json`)
  t.equal(res.status, 200)
  t.equal(((await res.json()) as { keys: unknown[] }).keys.length, 2)

  const verifier = remoteVerifier(url)
  const expect = { arm: 'echo', tool: 'echo', taskId: 'task-1', tenant: 'acme', stepId: 's1' }
  for (const [name, issuer] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const { token, tokenId } = await issuer.sign({
      arm: 'echo',
      taskId: 'task-1',
      tenant: 'acme',
      stepId: 's1',
      scope: ['echo'],
      ttlSeconds: 30,
    })
    const claims = await verifier.verify(token, expect)
    t.equal(claims.tokenId, tokenId, `a token of ${name} verifies`)
  }

  // a third orchestrator starting later: its key is found on the next fetch after the 1 s cooldown
  const c = await CapabilityIssuer.open({ sql: await connect() })
  t.teardown(() => c.close())
  await new Promise((r) => setTimeout(r, 1100))
  const { token } = await c.sign({ arm: 'echo', taskId: 'task-1', tenant: 'acme', stepId: 's1', scope: ['echo'], ttlSeconds: 30 })
  t.equal((await verifier.verify(token, expect)).taskId, 'task-1', 'a new key is picked up')
})
