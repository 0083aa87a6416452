// `ganglion keys` works directly on the configured database, here a PGlite under DATA_DIR: create
// prints the key once (alone on stdout), list shows records and never a secret, revoke marks the
// key revoked; exit 1 for an unknown id, 2 for bad arguments.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { ensureBuilt } from '../fixtures/ganglion-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
// Each run opens the database anew (PGlite's start-up is seconds on a busy machine).
t.setTimeout(300_000)

t.test('keys creates, lists and revokes keys on the configured database', { timeout: 300_000 }, async (t) => {
  ensureBuilt()
  const dataDir = mkdtempSync(join(tmpdir(), 'ganglion-keys-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  // The PGlite under DATA_DIR, whatever database the environment names.
  const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir }
  const ganglion = (...args: string[]) => {
    const run = spawnSync(process.execPath, [CLI, 'keys', ...args], { encoding: 'utf8', timeout: 120_000, env })
    return { status: run.status, stdout: run.stdout, stderr: run.stderr }
  }

  const created = ganglion('create', '--tenant', 'acme', '--role', 'admin', '--name', 'bootstrap')
  t.equal(created.status, 0, created.stderr)
  const key = created.stdout.trim()
  t.match(key, /^gk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/, 'the key alone on stdout')
  const id = key.slice(3, 19)
  t.match(created.stderr, `Created API key ${id}: role admin in tenant acme ("bootstrap")`)
  t.match(created.stderr, 'the only time the key is shown')
  t.match(created.stderr, 'Authorization: Bearer')
  t.notOk(created.stderr.includes(key), 'how to use it, without the key again')

  const json = ganglion('create', '--tenant', 'globex', '--role', 'viewer', '--name', 'dashboards', '--read-rate-limit', '0', '--json')
  t.equal(json.status, 0, json.stderr)
  const other = JSON.parse(json.stdout)
  t.match(other, { id: /^[0-9a-f]{16}$/, key: /^gk_/, tenant: 'globex', role: 'viewer', name: 'dashboards', created_at: String })
  t.same([other.rate_limit, other.read_rate_limit], [null, 0], 'its own read limit: none')

  const table = ganglion('list')
  t.equal(table.status, 0, table.stderr)
  t.match(table.stdout, /^ID\s+TENANT\s+ROLE\s+NAME\s+LIMITS\/MIN\s+CREATED\s+LAST USED\s+REVOKED\n/)
  t.match(table.stdout, new RegExp(`${id}\\s+acme\\s+admin\\s+bootstrap\\s+default\\s+\\S+Z\\s+-\\s+-`))
  t.match(table.stdout, new RegExp(`${other.id}\\s+globex\\s+viewer\\s+dashboards\\s+default/none\\s`))
  t.match(table.stdout, other.id)
  for (const secret of [key.slice(20), other.key.slice(20)]) t.notOk(table.stdout.includes(secret), 'no secret in the table')

  const acme = ganglion('list', '--tenant', 'acme', '--json')
  t.equal(acme.status, 0, acme.stderr)
  const records = JSON.parse(acme.stdout)
  t.same(
    records.map((r: { id: string }) => r.id),
    [id],
  )
  t.same(Object.keys(records[0]).sort(), [
    'created_at',
    'id',
    'last_used_at',
    'name',
    'rate_limit',
    'read_rate_limit',
    'revoked_at',
    'role',
    'tenant',
  ])

  const revoked = ganglion('revoke', id)
  t.equal(revoked.status, 0, revoked.stderr)
  t.match(revoked.stdout, `Revoked API key ${id} (admin in tenant acme) at `)

  const unknown = ganglion('revoke', '0000000000000000')
  t.equal(unknown.status, 1, 'an unknown id')
  t.match(unknown.stderr, 'No API key with id "0000000000000000"')

  for (const [args, message] of [
    [['create', '--tenant', 'acme', '--role', 'owner', '--name', 'x'], '--role: must be one of'],
    [['create', '--tenant', 'ac me', '--role', 'member', '--name', 'x'], '--tenant: must match pattern'],
    [['create', '--tenant', 'acme', '--role', 'member'], "required option '--name <name>' not specified"],
    [['create', '--tenant', 'acme', '--role', 'member', '--name', 'x', '--rate-limit', 'lots'], '--rate-limit: must be an integer'],
    [['create', '--tenant', 'acme', '--role', 'member', '--name', 'x', '--read-rate-limit', '-1'], '--read-rate-limit: must be'],
    [['list', '--tenant', '../etc'], '--tenant "../etc": must be'],
    [['revoke'], "missing required argument 'id'"],
    [['rotate', id], "unknown command 'rotate'"],
  ] as const) {
    const bad = ganglion(...args)
    t.equal(bad.status, 2, args.join(' '))
    t.match(bad.stderr, message, args.join(' '))
  }
  const after = JSON.parse(ganglion('list', '--json', '--tenant', 'acme').stdout)
  t.match(after, [{ id, revoked_at: String }], 'revoked, still listed')
  t.equal(JSON.parse(ganglion('list', '--json').stdout).length, 2, 'refused commands made no key')
})
