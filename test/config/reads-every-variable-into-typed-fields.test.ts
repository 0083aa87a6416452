import t from 'tap'
import { loadConfig } from '../../src/config/load.js'

t.test('reads every variable into typed, camelCased fields', async (t) => {
  const config = loadConfig({
    PORT: '3000',
    REFLEX_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: '/var/lib/ganglion',
    DATABASE_URL: 'postgresql://app:pw@db:5432/ganglion',
    REDIS_URL: 'rediss://cache:6380/0',
    QDRANT_URL: 'http://qdrant:6333',
    TASK_TIMEOUT: '60',
    MAX_PARALLEL_ARMS: '8',
    CACHE_TTL: '120',
    LOG_LEVEL: 'WARNING',
    RATE_LIMIT_PER_IP: '10',
    RATE_LIMIT_PER_USER: '20',
    BODY_LIMIT_BYTES: '2048',
    REFLEX_BLOCK_LEVEL: 'medium',
    CACHE_MAX_ENTRIES: '50',
    CACHE_MAX_BYTES: '4096',
    TRUST_PROXY: 'true',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: 'http://localhost:11434/v1',
    LLM_API_KEY: 'sk-test',
    LLM_MODEL: 'llama3',
    LLM_MODEL_PATH: '/models/x.gguf',
    ARM_CODER_URL: 'http://coder:6003',
    ARM_JUDGE_URL: 'https://judge.internal',
    UNRELATED: 'ignored',
  })
  t.match(config, {
    port: 3000,
    reflexPort: 0,
    host: '127.0.0.1',
    dataDir: '/var/lib/ganglion',
    databaseUrl: 'postgresql://app:pw@db:5432/ganglion',
    redisUrl: 'rediss://cache:6380/0',
    qdrantUrl: 'http://qdrant:6333',
    taskTimeout: 60,
    maxParallelArms: 8,
    cacheTtl: 120,
    logLevel: 'WARNING',
    rateLimitPerIp: 10,
    rateLimitPerUser: 20,
    bodyLimitBytes: 2048,
    reflexBlockLevel: 'medium',
    cacheMaxEntries: 50,
    cacheMaxBytes: 4096,
    trustProxy: true,
    llmProvider: 'openai',
    llmBaseUrl: 'http://localhost:11434/v1',
    llmApiKey: 'sk-test',
    llmModel: 'llama3',
    llmModelPath: '/models/x.gguf',
  })
  t.same(config.armUrls, { coder: 'http://coder:6003', judge: 'https://judge.internal' })
  t.equal(loadConfig({ DATABASE_URL: 'postgres://localhost/db' }).databaseUrl, 'postgres://localhost/db')
  t.equal(loadConfig({ TRUST_PROXY: '0' }).trustProxy, false)
})
