/**
 * A fallback launcher for the HTTP bench: the reflex branch of `start()` in src/app.ts, line for
 * line (embedded defaults: in-process cache tier and limiter, no Redis, no metrics on the reflex
 * app), for a tree where `ganglion reflex` cannot load because another part of the composition
 * root is not merged yet. Prefer `--reflex-cmd "node dist/cli/main.js reflex"` when it works.
 *
 *   npm run bench:http -- --reflex-cmd "node --import @tapjs/typescript/import bench/reflex-only.ts"
 */
import { loadConfig } from '../src/config/load.js'
import { createHttpApp } from '../src/http/app.js'
import { createLogger } from '../src/log.js'
import { createEngine } from '../src/reflex/engine.js'
import { registerReflexRoutes } from '../src/reflex/service.js'
import { MemoryCacheStore } from '../src/stores/memory-cache-store.js'
import { MemoryRateLimitStore } from '../src/stores/memory-rate-limit-store.js'
import { TieredCacheStore } from '../src/stores/tiered-cache-store.js'

const config = loadConfig(process.env)
const log = createLogger({ name: 'ganglion', level: config.logLevel })
const engine = createEngine({
  blockLevel: config.reflexBlockLevel,
  cacheMaxEntries: config.cacheMaxEntries,
  cacheMaxBytes: config.cacheMaxBytes,
})
const cache = new TieredCacheStore(new MemoryCacheStore(engine), undefined, { log })
const limiter = new MemoryRateLimitStore(engine)
const limits = { perIp: config.rateLimitPerIp, perUser: config.rateLimitPerUser, windowMs: 60_000 }
const app = createHttpApp({ name: 'reflex', bodyLimitBytes: config.bodyLimitBytes, logger: log, trustProxy: config.trustProxy })
registerReflexRoutes(app, {
  engine,
  cache,
  limiter,
  limits,
  cacheTtlSeconds: config.cacheTtl,
  hashSalt: config.redactionSalt,
  startedAt: new Date(),
  version: 'bench',
})
const port = await app.listen(config.reflexPort, config.host)
log.info({ port }, 'reflex layer listening (bench/reflex-only.ts)')

const stop = (): void => {
  app.close().then(() => process.exit(0), () => process.exit(1))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
