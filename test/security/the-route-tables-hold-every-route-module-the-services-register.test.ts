// The route-table tests (openapi.yaml's security, docs/security.md's table) build each service's
// table from test/helpers/route-tables.ts, not from a running service. This keeps that helper
// honest: a route module the composition root registers and the helper does not would leave its
// routes unchecked, so the two lists must be the same.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { ROUTE_MODULES, routeTables } from '../helpers/route-tables.js'

const source = (file: string) => readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8')

t.test('the helper registers exactly the route modules src/app.ts and the arm service register', async (t) => {
  const registered = new Set<string>()
  for (const file of ['app.ts', 'app-arm-service.ts']) {
    for (const m of source(file).matchAll(/\b(register\w+)\(\s*(?:deps\.)?app\b/g)) registered.add(m[1]!)
  }
  const helper = new Set(Object.values(ROUTE_MODULES).flatMap((modules) => Object.keys(modules)))
  t.ok(registered.size >= 9, `${registered.size} route modules found in the composition root`)
  t.same([...registered].sort(), [...helper].sort())
})

t.test('every service of the helper declares routes', async (t) => {
  const tables = routeTables(t)
  t.ok(tables.orchestrator.length >= 25, 'the orchestrator')
  t.ok(tables.reflex.length >= 10, 'the reflex layer')
  t.same(tables.arm.map((r) => `${r.method} ${r.path}`).sort(), [
    'GET /api/v1/metrics',
    'GET /capabilities',
    'GET /health',
    'GET /metrics',
    'POST /execute',
  ])
})
