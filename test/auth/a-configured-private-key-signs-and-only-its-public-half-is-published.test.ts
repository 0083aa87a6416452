import { exportJWK, exportPKCS8, generateKeyPair } from 'jose'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { onEachSql } from './each-sql.js'

onEachSql('a configured private key signs and only its public half is published', async (t, connect) => {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
  const pem = await exportPKCS8(pair.privateKey)
  const jwk = JSON.stringify(await exportJWK(pair.privateKey))
  const sql = await connect()

  // two orchestrators configured with the same key (one as PEM, one as JWK) publish one row
  const a = await CapabilityIssuer.open({ sql, privateKey: pem })
  const b = await CapabilityIssuer.open({ sql: await connect(), privateKey: jwk })
  t.teardown(() => Promise.all([a.close(), b.close()]))
  t.equal(a.kid, b.kid)
  const { rows } = await sql.query<{ kid: string; public_jwk: Record<string, unknown> }>('select kid, public_jwk from capability_keys')
  t.equal(rows.length, 1)
  t.equal(rows[0]!.kid, a.kid)
  t.equal(rows[0]!.public_jwk.d, undefined, 'the private part never reaches the database')
  t.notMatch(JSON.stringify(rows), /"d"/)

  const { token } = await a.sign({ arm: 'judge', taskId: 't1', tenant: 'acme', stepId: 's1', scope: ['validate'], ttlSeconds: 60 })
  t.equal((await b.localVerifier().verify(token, { arm: 'judge', tool: 'validate', taskId: 't1', stepId: 's1' })).taskId, 't1')

  for (const bad of [
    'not a key',
    '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
    '{"kty":"OKP","crv":"Ed25519","x":"abc"}',
  ]) {
    const err = await CapabilityIssuer.open({ privateKey: bad }).then(
      () => undefined,
      (e: Error) => e,
    )
    t.ok(err, 'refused')
    t.notMatch(err!.message, bad.slice(0, 12), 'the key is not echoed')
  }
})
