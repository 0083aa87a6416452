/**
 * compose.yaml and deploy/k8s/, read as YAML and checked against the code (no Docker engine or
 * cluster needed): the services that take client requests run with AUTH=required, their secrets
 * come from outside the files, and the rate-limit buckets live in a noeviction Redis of their own
 * while the cache's Redis is allkeys-lru.
 */

import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'
import YAML from 'yaml'
import { ConfigError, loadConfig } from '../../src/config/load.js'
import { EnvSchema } from '../../src/config/schema.js'

const ROOT = new URL('../../', import.meta.url)
const K8S = new URL('deploy/k8s/', ROOT)
/** Variables whose value is a secret, or a URL that may carry one. */
const SECRETS = ['ADMIN_TOKEN', 'CACHE_KEY_SECRET', 'REDACTION_SALT', 'LLM_API_KEY', 'CAPABILITY_PRIVATE_KEY', 'POSTGRES_PASSWORD']
const API_SERVICES = ['orchestrator', 'reflex']
const KNOWN = new Set([...Object.keys(EnvSchema.properties), 'HEALTH_PORT'])

type Doc = Record<string, any>

function parse(text: string): Doc[] {
  return YAML.parseAllDocuments(text, { merge: true, uniqueKeys: true }).map((d) => {
    if (d.errors.length > 0) throw d.errors[0]
    return d.toJS({ maxAliasCount: -1 }) as Doc
  })
}

/** What compose would pass for `${NAME:-default}` and `${NAME:?message}` (a 64-hex secret). */
function interpolate(value: string): string {
  return value.replace(
    /\$\{(\w+)(?::-([^}]*)|:\?[^}]*)\}/g,
    (_m, _name: string, fallback: string | undefined) => fallback ?? 'a1'.repeat(32),
  )
}

/** The value of `--name` in a redis-server command line. */
function flag(command: readonly string[], name: string): string | undefined {
  const i = command.indexOf(name)
  return i < 0 ? undefined : command[i + 1]
}

t.test('compose.yaml', async (t) => {
  const [compose] = parse(readFileSync(new URL('compose.yaml', ROOT), 'utf8'))
  const services = compose?.services as Record<string, Doc>

  for (const name of API_SERVICES) {
    const env = services[name]?.environment as Record<string, string>
    t.equal(env.AUTH, 'required', `${name}: AUTH=required`)
    for (const secret of ['ADMIN_TOKEN', 'CACHE_KEY_SECRET']) {
      t.match(env[secret], new RegExp(`^\\$\\{${secret}:\\?[^}]+\\}$`), `${name}: ${secret} comes from .env, and compose stops without it`)
    }
    const limits = new URL(env.RATE_LIMIT_REDIS_URL ?? '').hostname
    const cache = new URL(env.REDIS_URL ?? '').hostname
    t.not(limits, cache, `${name}: the limits have a Redis of their own`)
    t.equal(flag(services[limits]?.command, '--maxmemory-policy'), 'noeviction', `${name}: the limits Redis never evicts`)
    t.equal(flag(services[cache]?.command, '--maxmemory-policy'), 'allkeys-lru', `${name}: the cache Redis evicts old answers`)
    t.ok(services[name]?.depends_on?.[limits], `${name} starts after the limits Redis`)

    const config = loadConfig(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(String(v))])))
    t.equal(config.auth, 'required')
    t.equal(config.rateLimitRedisUrl, env.RATE_LIMIT_REDIS_URL)
    t.ok(config.databaseUrl, `${name}: a database for the API keys`)
  }

  for (const [name, service] of Object.entries(services)) {
    const env = (service.environment ?? {}) as Record<string, unknown>
    for (const [key, value] of Object.entries(env)) {
      if (!name.startsWith('postgres')) t.ok(KNOWN.has(key), `${name}: ${key} is a variable the service reads`)
      if (SECRETS.includes(key)) t.match(String(value), new RegExp(`^\\$\\{${key}(:[-?][^}]*)?\\}$`), `${name}: ${key} is no literal`)
      if (key.endsWith('_URL') && /:\/\/[^/@:]*:[^/@]*@/.test(String(value))) {
        t.match(String(value), /:\/\/[^/@:]*:\$\{POSTGRES_PASSWORD:\?[^}]*\}@/, `${name}: the password in ${key} comes from .env`)
      }
    }
  }
})

t.test('deploy/k8s', async (t) => {
  const files = readdirSync(K8S).filter((f) => f.endsWith('.yaml'))
  const docs = new Map(files.map((f) => [f, parse(readFileSync(new URL(f, K8S), 'utf8'))]))
  const all = [...docs.values()].flat()
  const kind = (k: string, name: string) => all.find((d) => d.kind === k && d.metadata?.name === name)

  const [kustomization] = docs.get('kustomization.yaml') ?? []
  t.same(
    [...((kustomization?.resources ?? []) as string[])].sort(),
    files.filter((f) => f !== 'kustomization.yaml' && f !== 'secret.example.yaml').sort(),
    'the kustomization applies every manifest but the secret template',
  )

  const config = kind('ConfigMap', 'ganglion-config')?.data as Record<string, string>
  t.equal(config.AUTH, 'required')
  t.equal(config.HOST, '0.0.0.0')

  const secret = kind('Secret', 'ganglion-secrets')?.stringData as Record<string, string>
  for (const name of ['ADMIN_TOKEN', 'CACHE_KEY_SECRET', 'REDACTION_SALT']) t.equal(secret[name], 'CHANGE-ME', `${name} is a placeholder`)
  t.match(secret.DATABASE_URL, /:CHANGE-ME@/, 'the database password is a placeholder')
  const err = t.throws(() => loadConfig({ ...config, ...secret }))
  t.ok(err instanceof ConfigError, 'the unedited template stops the start')
  t.same(
    (err as ConfigError).problems.map((p) => p.split('=')[0]).sort(),
    ['ADMIN_TOKEN', 'CACHE_KEY_SECRET', 'REDACTION_SALT'],
    'naming each placeholder secret',
  )

  const deployments = all.filter((d) => d.kind === 'Deployment')
  for (const deployment of deployments) {
    for (const container of deployment.spec.template.spec.containers as Doc[]) {
      for (const entry of (container.env ?? []) as Doc[]) {
        if (SECRETS.includes(entry.name) || entry.name.endsWith('_URL')) {
          t.notOk('value' in entry, `${deployment.metadata.name}: ${entry.name} is no literal`)
          const ref = entry.valueFrom?.secretKeyRef
          t.equal(ref?.name, 'ganglion-secrets', `${deployment.metadata.name}: ${entry.name} from the secret`)
          t.ok(ref?.key in secret, `${deployment.metadata.name}: ${entry.name}'s key is in the template`)
        }
      }
    }
  }

  for (const name of API_SERVICES) {
    const container = kind('Deployment', name)?.spec.template.spec.containers[0] as Doc
    const names = (container.env as Doc[]).map((e) => e.name)
    for (const v of ['ADMIN_TOKEN', 'CACHE_KEY_SECRET', 'DATABASE_URL', 'REDIS_URL', 'RATE_LIMIT_REDIS_URL']) {
      t.ok(names.includes(v), `${name} gets ${v}`)
    }
    t.same(container.envFrom, [{ configMapRef: { name: 'ganglion-config' } }], `${name} reads AUTH and HOST from the config`)
  }

  const limitsHost = new URL(secret.RATE_LIMIT_REDIS_URL ?? '').hostname
  t.not(limitsHost, new URL(secret.REDIS_URL ?? '').hostname, 'the limits have a Redis of their own')
  t.ok(kind('Service', limitsHost), `a Service named ${limitsHost}`)
  const redis = kind('Deployment', limitsHost)?.spec.template.spec.containers[0] as Doc
  t.equal(flag(redis.args, '--maxmemory-policy'), 'noeviction', 'the limits Redis never evicts')
  t.equal(flag(redis.args, '--save'), '', 'and persists nothing')
})
