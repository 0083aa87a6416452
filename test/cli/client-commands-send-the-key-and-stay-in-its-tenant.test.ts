// The client against a service with AUTH=required: the key goes as a bearer credential, a missing,
// wrong or revoked one and a role without the permission exit 7 with the service's code, another
// tenant's task is not found; and `ganglion keys` goes over HTTP when a URL is given.
import t from 'tap'
import { startGanglion } from '../e2e/e2e-fixture.js'
import { cli } from './cli-client.js'

t.setTimeout(600_000)

const ADMIN_TOKEN = 'cli-test-admin-token-0123456789abcdef'

t.test('client commands with AUTH=required', async (t) => {
  const url = await startGanglion(t, { AUTH: 'required', ADMIN_TOKEN })
  const admin = { GANGLION_URL: url, GANGLION_API_KEY: ADMIN_TOKEN }

  /** A new key over HTTP, made with `ganglion keys create` as the admin. */
  const newKey = async (tenant: string, role: string): Promise<string> => {
    const r = await cli(['keys', 'create', '--tenant', tenant, '--role', role, '--name', `${tenant} ${role}`], admin)
    t.equal(r.code, 0, r.stderr)
    t.match(r.stderr, /Created API key [0-9a-f]+: role /)
    return r.stdout.trim()
  }
  const member = await newKey('acme', 'member')
  const viewer = await newKey('acme', 'viewer')
  const other = await newKey('globex', 'member')

  t.test('no key, a wrong key: exit 7 with UNAUTHORIZED', async (t) => {
    const wrong: Record<string, string>[] = [{ GANGLION_URL: url }, { GANGLION_URL: url, GANGLION_API_KEY: 'gk_0123456789abcdef_wrong' }]
    for (const env of wrong) {
      const r = await cli(['tasks', 'list'], env)
      t.equal(r.code, 7)
      t.match(r.stderr, /^error: UNAUTHORIZED: /m)
    }
    const flag = await cli(['--key', 'not-a-key', 'run', 'Compute the 20th Fibonacci number'], { GANGLION_URL: url })
    t.equal(flag.code, 7, '--key is sent too')
  })

  t.test('a key with a space or control character is a usage error, never a header', async (t) => {
    const r = await cli(['tasks', 'list', '--key', 'abc\r\nx-evil: 1'], { GANGLION_URL: url })
    t.equal(r.code, 2)
    t.match(r.stderr, /--key: must be printable ASCII/)
  })

  t.test("a member runs a task; another tenant's member cannot read it; a viewer cannot run one", async (t) => {
    const run = await cli(['run', '--json', 'Compute the 20th Fibonacci number'], { GANGLION_URL: url, GANGLION_API_KEY: member })
    t.equal(run.code, 0, run.stderr)
    const id = JSON.parse(run.stdout).task_id
    const mine = await cli(['tasks', 'get', id, '--key', member], { GANGLION_URL: url })
    t.equal(mine.code, 0)
    for (const args of [
      ['tasks', 'get', id],
      ['tasks', 'watch', id],
      ['tasks', 'cancel', id],
    ]) {
      const r = await cli(args, { GANGLION_URL: url, GANGLION_API_KEY: other })
      t.equal(r.code, 1, `${args.join(' ')} from another tenant`)
      t.match(r.stderr, /^error: NOT_FOUND: /m)
    }
    const list = await cli(['tasks', 'list', '--json'], { GANGLION_URL: url, GANGLION_API_KEY: other })
    t.same(JSON.parse(list.stdout).data, [], "another tenant's list is empty")
    const viewed = await cli(['run', 'Compute the 20th Fibonacci number'], { GANGLION_URL: url, GANGLION_API_KEY: viewer })
    t.equal(viewed.code, 7)
    t.match(viewed.stderr, /^error: FORBIDDEN: /m)
  })

  t.test('keys over HTTP: list, revoke, and a revoked key is refused', async (t) => {
    const list = await cli(['keys', 'list', '--tenant', 'globex', '--json'], admin)
    t.equal(list.code, 0, list.stderr)
    const keys = JSON.parse(list.stdout) as Array<{ id: string; tenant: string }>
    t.same(
      keys.map((k) => k.tenant),
      ['globex'],
    )
    const table = await cli(['keys', 'list'], admin)
    t.match(table.stdout, /^ID +TENANT +ROLE +NAME/)
    t.equal(table.stdout.trim().split('\n').length, 4, 'a header and three keys')

    const notAdmin = await cli(['keys', 'list'], { GANGLION_URL: url, GANGLION_API_KEY: member })
    t.equal(notAdmin.code, 7, "a member's key cannot manage keys")
    t.match(notAdmin.stderr, /FORBIDDEN/)

    const revoked = await cli(['keys', 'revoke', keys[0]!.id], admin)
    t.equal(revoked.code, 0, revoked.stderr)
    t.match(revoked.stdout, /^Revoked API key /)
    const again = await cli(['keys', 'revoke', 'ffffffffffffffff'], admin)
    t.equal(again.code, 1, 'an unknown key id exits 1, as on the database')
    t.match(again.stderr, /NOT_FOUND/)

    // Revocation reaches the verifier within about a second.
    let code: number | null = null
    for (let i = 0; i < 20 && code !== 7; i++) {
      code = (await cli(['tasks', 'list'], { GANGLION_URL: url, GANGLION_API_KEY: other })).code
      if (code !== 7) await new Promise((r) => setTimeout(r, 250))
    }
    t.equal(code, 7, 'the revoked key is refused')
  })
})
