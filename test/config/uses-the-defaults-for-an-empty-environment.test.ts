import t from 'tap'
import { loadConfig } from '../../src/config/load.js'

t.test('uses the defaults of DESIGN.md §2 for an empty environment', async (t) => {
  const config = loadConfig({})
  t.same(config, {
    port: 8000,
    reflexPort: 8001,
    host: '0.0.0.0',
    dataDir: './data',
    databaseUrl: undefined,
    redisUrl: undefined,
    qdrantUrl: undefined,
    taskTimeout: 300,
    maxParallelArms: 5,
    cacheTtl: 3600,
    logLevel: 'INFO',
    rateLimitPerIp: 100,
    rateLimitPerUser: 1000,
    bodyLimitBytes: 1048576,
    reflexBlockLevel: 'high',
    cacheMaxEntries: 100000,
    cacheMaxBytes: 268435456,
    trustProxy: false,
    llmProvider: 'offline',
    llmBaseUrl: undefined,
    llmApiKey: undefined,
    llmModel: undefined,
    llmModelPath: undefined,
    armUrls: {},
  })
  t.ok(Object.isFrozen(config))
  t.ok(Object.isFrozen(config.armUrls))
  t.equal(loadConfig({ PORT: '', LOG_LEVEL: '' }).port, 8000, 'an empty variable counts as unset')
})
