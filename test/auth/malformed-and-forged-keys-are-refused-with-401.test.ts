// Anything that starts like an API key but is not one this database issued, revoked or not, is a
// 401 with the same code and challenge: a bare prefix, a missing id or secret, a wrong secret, the
// secret of another key, a revoked key. The secret's hash is compared in constant time, and an
// unknown id goes through the same comparison as a wrong secret.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { AS_ADMIN, bearer, keyServer } from './api-key-server.js'
import { onEachSql } from './each-sql.js'

const SOURCE = readFileSync(new URL('../../src/auth/api-keys.ts', import.meta.url), 'utf8')

onEachSql('malformed and forged keys are refused with 401', async (t, connect) => {
  const server = await keyServer(t, await connect())
  const a = await server.create({ tenant: 'acme', role: 'member', name: 'a' })
  const b = await server.create({ tenant: 'acme', role: 'admin', name: 'b' })
  const revoked = await server.create({ tenant: 'acme', role: 'member', name: 'revoked' })
  await fetch(`${server.url}/api/v1/api-keys/${revoked.id}`, { method: 'DELETE', headers: AS_ADMIN })
  const secretOf = (key: string) => key.slice(20)
  const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1)

  t.equal((await fetch(`${server.url}/whoami`, { headers: bearer(a.key) })).status, 200, 'the real key works')
  const forms: Record<string, string> = {
    'the bare prefix': 'gk_',
    'no secret': 'gk_x_',
    'an id without a secret': `gk_${a.id}_`,
    'a secret without an id': `gk__${secretOf(a.key)}`,
    'a wrong secret': `gk_${a.id}_${flip(secretOf(a.key))}`,
    'the secret of another key': `gk_${a.id}_${secretOf(b.key)}`,
    "another key's id with this secret": `gk_${b.id}_${secretOf(a.key)}`,
    'an unknown id': `gk_${'0'.repeat(16)}_${secretOf(a.key)}`,
    'an upper-case id': `gk_${a.id.toUpperCase()}_${secretOf(a.key)}`,
    'one character more': `${a.key}A`,
    'one character less': a.key.slice(0, -1),
    'the key with its prefix twice': `gk_${a.key}`,
    'a revoked key': revoked.key,
  }
  for (const [what, token] of Object.entries(forms)) {
    const res = await fetch(`${server.url}/whoami`, { headers: bearer(token) })
    t.equal(res.status, 401, what)
    t.equal(res.headers.get('www-authenticate'), 'Bearer', `${what}: the challenge`)
    t.match(
      (await res.json()).error,
      { code: 'UNAUTHORIZED', details: { field: 'authorization', constraint: 'must be a valid credential' } },
      what,
    )
  }
  t.equal((await fetch(`${server.url}/whoami`, { headers: bearer(a.key) })).status, 200, 'the real key still works')
})

// Timing cannot be measured reliably in a test, so the code path is checked instead: the only
// comparison of a hash is node:crypto's timingSafeEqual, made once whether the id is known or not.

t.test('the verifier compares hashes in constant time only', async (t) => {
  const verify = SOURCE.slice(SOURCE.indexOf('async verify('), SOURCE.indexOf('/** SHA-256'))
  t.ok(verify.length > 0, 'found verify()')
  t.match(verify, /timingSafeEqual\(presented, stored\?\.secret_hash \?\? NO_HASH\)/, 'one comparison, a stand-in hash for an unknown id')
  t.ok(verify.indexOf('timingSafeEqual') < verify.indexOf('stored === undefined'), 'compared before the unknown id is refused')
  for (const line of SOURCE.split('\n').filter(
    (l) => /hash|presented|secret\b/.test(l) && !l.trim().startsWith('*') && !l.trim().startsWith('//'),
  ))
    t.notMatch(line, /===|!==|==|\.equals\(|Buffer\.compare|\.compare\(/, `no plain comparison: ${line.trim()}`)
})
