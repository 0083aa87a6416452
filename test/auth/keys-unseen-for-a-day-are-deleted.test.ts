import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { onEachSql } from './each-sql.js'

onEachSql('keys unseen for a day are deleted', async (t, connect) => {
  const sql = await connect()
  const old = await CapabilityIssuer.open({ sql })
  await old.close() // stopped: it no longer refreshes last_seen_at
  await sql.query(`update capability_keys set last_seen_at = now() - interval '25 hours' where kid = $1`, [old.kid])
  const recent = await CapabilityIssuer.open({ sql })
  await recent.close()
  await sql.query(`update capability_keys set last_seen_at = now() - interval '23 hours' where kid = $1`, [recent.kid])

  const current = await CapabilityIssuer.open({ sql: await connect() })
  t.teardown(() => current.close())
  const kids = (await current.jwks()).keys.map((k) => k.kid)
  t.notOk(kids.includes(old.kid), 'a key unseen for 25 hours is gone')
  t.ok(kids.includes(recent.kid), 'a key seen 23 hours ago still verifies its tokens')
  t.ok(kids.includes(current.kid))
})
