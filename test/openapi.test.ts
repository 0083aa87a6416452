// Which routes the document lists, and who may call them, is held to the route tables by
// test/security/openapi-names-every-routes-permission.test.ts.
import { readFileSync } from 'node:fs'
import t from 'tap'
import YAML from 'yaml'
import { ArmCapability, ArmHealth } from '../src/arms/contract.js'
import { RegisterArmRequest } from '../src/arms/registry.js'
import { CreateApiKeyRequest } from '../src/auth/api-keys.js'
import { IngestRequest, KnowledgeSearchRequest } from '../src/orchestrator/knowledge-routes.js'
import * as taskSchemas from '../src/orchestrator/schemas.js'
import * as reflexSchemas from '../src/reflex/schemas.js'
import { CreateWebhookRequest } from '../src/webhooks/routes.js'

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
    CreateWebhookRequest,
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
