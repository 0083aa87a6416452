// docs/security.md lists every route of every service with the permission it needs and the roles
// that may call it, and which role holds which permission. This holds both tables to what the
// services enforce (the route tables, `can`), both ways, so the page cannot drift from the code.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { can, type Permission, type Principal, ROLES, type Role } from '../../src/auth/principal.js'
import { openApiPath, routeTables, SERVICES, type Service } from '../helpers/route-tables.js'

const page = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8')

/** The text of a `## ` section, up to the next one. */
function section(title: string): string {
  const start = page.indexOf(`\n## ${title}\n`)
  if (start < 0) return ''
  const end = page.indexOf('\n## ', start + 1)
  return page.slice(start, end < 0 ? undefined : end)
}

/** The cells of every table row of `text` but header and rule rows. */
function rows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('|---'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    )
    .filter((cells) => cells[0]?.startsWith('`'))
}

const unquote = (cell: string | undefined) => (cell ?? '').replaceAll('`', '')
const principal = (role: Role): Principal => ({ id: `test:${role}`, tenant: 'acme', roles: [role], via: 'api-key' })

function whoMayCall(permission: Permission): string {
  if (permission === 'public') return 'anyone'
  if (permission === 'capability') return 'a capability token'
  return ROLES.filter((role) => can(principal(role), permission)).join(', ')
}

// How the page heads each service's table.
const HEADING: Record<Service, string> = { orchestrator: 'Orchestrator', reflex: 'Reflex layer', arm: 'An arm' }

function documentedRoutes(service: Service): string[] {
  const routes = section('Routes')
  const start = routes.indexOf(`\n### ${HEADING[service]}`)
  if (start < 0) return []
  const end = routes.indexOf('\n### ', start + 1)
  return rows(routes.slice(start, end < 0 ? undefined : end)).map(
    ([method, path, permission, who]) => `${unquote(method)} ${unquote(path)} ${unquote(permission)} | ${who}`,
  )
}

t.test('the threat model, the roles and the routes come before the API keys; what to set, after', async (t) => {
  const at = (title: string) => page.indexOf(`\n## ${title}\n`)
  t.ok(at('Threat model') > 0, 'a threat model')
  t.ok(at('Threat model') < at('Roles') && at('Roles') < at('Routes') && at('Routes') < at('API keys'), 'in order')
  t.ok(at('What a deployment must set') > at('Tenants'), 'what a deployment must set, near the end')
})

t.test('each service table lists every route with its permission and who may call it, and nothing else', async (t) => {
  const tables = routeTables(t)
  for (const service of SERVICES) {
    const declared = tables[service].map((r) => `${r.method} ${openApiPath(r.path)} ${r.permission} | ${whoMayCall(r.permission)}`)
    t.ok(declared.length > 0, `${service} declares routes`)
    t.same(documentedRoutes(service).sort(), [...declared].sort(), `the ${HEADING[service]} table`)
  }
})

t.test('the roles table grants each permission to exactly the roles that have it', async (t) => {
  const tables = routeTables(t)
  const needed = new Set(SERVICES.flatMap((s) => tables[s].map((r) => r.permission)).filter((p) => p !== 'public' && p !== 'capability'))
  const table = rows(section('Roles'))
  t.same(table.map(([permission]) => unquote(permission)).sort(), [...needed].sort(), 'every permission a route needs, and no other')
  for (const [permission, , ...grants] of table) {
    const p = unquote(permission) as Permission
    const granted = ROLES.filter((_, i) => grants[i] === 'yes')
    t.same(granted, whoMayCall(p).split(', '), `${p}: admin, member, viewer, service as principal.ts grants`)
  }
})
