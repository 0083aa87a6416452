// openapi.yaml says who may call each operation: `x-permission` names the permission its route
// enforces, `security` the credentials it takes (`[]` for an open route), and an operation that
// needs a credential lists its 401 and 403. This holds the document to the route tables the
// services enforce, both ways: every route is documented as declared, and nothing else is.
import { readFileSync } from 'node:fs'
import t from 'tap'
import YAML from 'yaml'
import type { Permission } from '../../src/auth/principal.js'
import { openApiPath, routeTables, SERVICES, type Service } from '../helpers/route-tables.js'

interface Operation {
  'x-permission'?: string
  security?: unknown
  responses?: Record<string, unknown>
}
type PathItem = Record<string, Operation> & { servers?: { description?: string }[] }

const doc = YAML.parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
  servers: { description?: string }[]
  security: unknown
  paths: Record<string, PathItem>
  components: { securitySchemes: Record<string, Record<string, string>> }
}
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
// How each service is named in a path item's `servers`.
const SERVER: Record<Service, string> = { orchestrator: 'orchestrator', reflex: 'reflex layer', arm: 'an arm' }
const CREDENTIAL = [{ apiKey: [] }, { jwt: [] }]
const ERROR = { $ref: '#/components/responses/Error' }

function expectedSecurity(permission: Permission): unknown {
  if (permission === 'public') return []
  if (permission === 'capability') return [{ capabilityToken: [] }]
  return CREDENTIAL
}

/** Every documented operation, `GET /api/v1/tasks/{task_id}` → the services its path item names. */
function documentedOperations(): Map<string, string[]> {
  const ops = new Map<string, string[]>()
  for (const [path, item] of Object.entries(doc.paths)) {
    const servers = (item.servers ?? doc.servers).map((s) => s.description ?? '')
    for (const method of METHODS) if (item[method]) ops.set(`${method.toUpperCase()} ${path}`, servers)
  }
  return ops
}

t.test('API keys and identity-provider tokens are bearer schemes, and one of them is the default', async (t) => {
  const schemes = doc.components.securitySchemes
  t.match(schemes.apiKey, { type: 'http', scheme: 'bearer', bearerFormat: /gk_/, description: /ADMIN_TOKEN/ })
  t.match(schemes.jwt, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: /cannot be revoked/ })
  t.match(schemes.capabilityToken, { type: 'http', scheme: 'bearer' })
  t.same(doc.security, CREDENTIAL)
})

t.test('every route is documented with the permission it enforces and the credentials it takes', async (t) => {
  const tables = routeTables(t)
  const ops = documentedOperations()
  let checked = 0
  for (const service of SERVICES) {
    for (const route of tables[service]) {
      const name = `${route.method} ${openApiPath(route.path)}`
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()]
      if (!t.ok(op, `${service}: ${name} is documented`) || !op) continue
      t.ok(ops.get(name)?.includes(SERVER[service]), `${name} names the ${service} among its servers`)
      t.equal(op['x-permission'], route.permission, `${name}: x-permission`)
      t.same(op.security, expectedSecurity(route.permission), `${name}: security`)
      if (route.permission !== 'public') {
        t.same(op.responses?.['401'], ERROR, `${name}: 401 without a valid credential`)
        t.same(op.responses?.['403'], ERROR, `${name}: 403 when the credential may not`)
      }
      checked++
    }
  }
  t.ok(checked >= 40, `${checked} routes checked`)
})

t.test('the document has no operation and names no server that the route tables lack', async (t) => {
  const tables = routeTables(t)
  const served = new Map<string, string[]>()
  for (const service of SERVICES) {
    for (const route of tables[service]) {
      const name = `${route.method} ${openApiPath(route.path)}`
      served.set(name, [...(served.get(name) ?? []), SERVER[service]])
    }
  }
  for (const [name, servers] of documentedOperations()) {
    t.ok(served.has(name), `${name} is served`)
    t.same([...servers].sort(), [...(served.get(name) ?? [])].sort(), `${name}: servers are exactly those that serve it`)
  }
})
