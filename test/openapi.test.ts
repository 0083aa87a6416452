import { readFileSync } from 'node:fs'
import t from 'tap'
import YAML from 'yaml'
import { ArmCapability, ArmHealth } from '../src/arms/contract.js'
import { RegisterArmRequest } from '../src/arms/registry.js'
import { CreateApiKeyRequest } from '../src/auth/api-keys.js'
import type { HttpApp } from '../src/http/app.js'
import { registerDocsRoutes } from '../src/http/docs-routes.js'
import { registerApiKeyRoutes } from '../src/orchestrator/api-key-routes.js'
import { registerArmsRoutes } from '../src/orchestrator/arms-routes.js'
import { registerEventsRoute } from '../src/orchestrator/events-route.js'
import { IngestRequest, KnowledgeSearchRequest, registerKnowledgeRoutes } from '../src/orchestrator/knowledge-routes.js'
import * as taskSchemas from '../src/orchestrator/schemas.js'
import { registerStatusRoutes } from '../src/orchestrator/status-routes.js'
import { registerTaskRoutes } from '../src/orchestrator/task-routes.js'
import * as reflexSchemas from '../src/reflex/schemas.js'
import { registerReflexRoutes } from '../src/reflex/service.js'

const doc = YAML.parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8'))
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema))

t.test('openapi.yaml request schemas equal the live typebox schemas', async (t) => {
  const live: Record<string, unknown> = {
    CheckRequest: reflexSchemas.CheckRequest,
    PreprocessRequest: reflexSchemas.PreprocessRequest,
    FilterPiiRequest: reflexSchemas.FilterPiiRequest,
    CacheSetRequest: reflexSchemas.CacheSetRequest,
    CreateTaskRequest: taskSchemas.CreateTaskRequest,
    IngestRequest,
    KnowledgeSearchRequest,
    RegisterArmRequest,
    ArmCapability,
    ArmHealth,
    CreateApiKeyRequest,
  }
  for (const [name, schema] of Object.entries(live)) {
    t.same(doc.components.schemas[name], plain(schema), `${name} matches`)
  }
})

t.test('openapi.yaml is OpenAPI 3.0 and every $ref resolves', async (t) => {
  t.match(doc.openapi, /^3\.0\./)
  const refs: string[] = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk)
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') refs.push(v)
        else walk(v)
      }
    }
  }
  walk(doc)
  t.ok(refs.length > 10)
  for (const ref of refs) {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], doc)
    t.ok(target, `${ref} resolves`)
  }
})

/** Records what each component registers; handlers are never called here. */
function recorder(into: Set<string>): HttpApp {
  const add = (method: string, path: string) => into.add(`${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`)
  return {
    route: (method, path) => add(method, path),
    stream: (method, path) => add(method, path),
    routes: () => [],
    listen: async () => 0,
    close: async () => {},
  }
}

t.test('every live route is in openapi.yaml and every documented operation is live', async (t) => {
  const live = new Set<string>()
  const app = recorder(live)
  const none = {} as never
  registerReflexRoutes(app, none)
  registerTaskRoutes(app, none)
  registerEventsRoute(app, none)
  registerStatusRoutes(app, none)
  registerArmsRoutes(app, none)
  registerKnowledgeRoutes(app, none)
  registerApiKeyRoutes(app, none)
  registerDocsRoutes(app)
  // The documentation's own files are not part of the API.
  const api = [...live].filter((r) => !r.startsWith('get /docs/'))

  const documented = new Set<string>()
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) documented.add(`${method} ${path}`)
  }
  for (const route of api) t.ok(documented.has(route), `${route} is documented`)
  for (const op of documented) t.ok(live.has(op), `${op} is served`)
})
