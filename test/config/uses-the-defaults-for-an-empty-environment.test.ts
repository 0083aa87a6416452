import t from 'tap'
import { loadConfig } from '../../src/config/load.js'

t.test('uses the defaults for an empty environment', async (t) => {
  const { redactionSalt, cacheKeySecret, ...config } = loadConfig({})
  t.match(redactionSalt, /^[0-9a-f]{32}$/, 'a random salt when REDACTION_SALT is unset')
  t.match(cacheKeySecret, /^[0-9a-f]{64}$/, 'a random answer-key secret when CACHE_KEY_SECRET is unset')
  t.not(loadConfig({}).cacheKeySecret, cacheKeySecret, 'random per load')
  t.not(loadConfig({}).redactionSalt, redactionSalt, 'random per load')
  t.equal(loadConfig({ REDACTION_SALT: 'a-long-enough-secret' }).redactionSalt, 'a-long-enough-secret')
  t.same(config, {
    port: 8000,
    reflexPort: 8001,
    host: '127.0.0.1',
    dataDir: './data',
    databaseUrl: undefined,
    redisUrl: undefined,
    rateLimitRedisUrl: undefined,
    qdrantUrl: undefined,
    qdrantApiKey: undefined,
    qdrantCollectionPrefix: 'ganglion',
    taskTimeout: 300,
    maxParallelArms: 5,
    taskWorkers: 4,
    stepWorkers: 16,
    runnerConnections: 2,
    runnerConnectionsIdle: 8,
    cacheTtl: 3600,
    logLevel: 'INFO',
    rateLimitPerIp: 100,
    rateLimitPerUser: 1000,
    rateLimitReadsPerIp: 600,
    rateLimitReadsPerUser: 6000,
    streamsPerUser: 20,
    streamsTotal: 2000,
    bodyLimitBytes: 1048576,
    reflexBlockLevel: 'high',
    reflexInjectionThreshold: undefined,
    reflexPiiThreshold: 0.4,
    planMemoryMinSimilarity: 0.5,
    cacheMaxEntries: 100000,
    cacheMaxBytes: 268435456,
    trustProxy: false,
    llmProvider: 'offline',
    llmBaseUrl: undefined,
    llmApiKey: undefined,
    llmModel: undefined,
    llmModelPath: undefined,
    armUrls: {},
    stepTimeout: 60,
    llmEmbeddingModel: undefined,
    llmMaxTokensField: 'max_tokens',
    llmTimeout: 120,
    llmContextSize: 0,
    llmPrices: {},
    tasksActivePerTenant: 1000,
    taskDefaultMaxTokens: 20000,
    taskMaxTokens: 200000,
    checkBudgetMs: 2000,
    shutdownGraceSeconds: 15,
    taskRetentionDays: 0,
    orchestratorUrl: 'http://127.0.0.1:8000',
    capabilityPrivateKey: undefined,
    executorShellAllow: undefined,
    executorFetchAllow: [],
    executorMaxSandboxes: 4,
    armUrlAllowPrivate: [],
    webhookAllowPrivate: [],
    webhookSecretKey: undefined,
    webhookMaxAttempts: 6,
    webhookRetryBaseMs: 10000,
    webhookTimeout: 10,
    adminToken: undefined,
    auth: 'off',
    authOffInTheOpen: false,
    jwt: undefined,
  })
  const frozen = loadConfig({})
  t.ok(Object.isFrozen(frozen))
  t.ok(Object.isFrozen(frozen.armUrls))
  t.equal(loadConfig({ PORT: '', LOG_LEVEL: '' }).port, 8000, 'an empty variable counts as unset')
})
