import t from 'tap'
import { ConfigError, loadConfig } from '../../src/config/load.js'

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) return err.problems
    throw err
  }
  return []
}

t.test('rejects each kind of bad value, naming the variable, the value and the rule', async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'eighty' }, 'PORT="eighty": must be an integer string'],
    [{ PORT: '8.5' }, 'PORT="8.5": must be an integer string'],
    [{ PORT: '-1' }, 'PORT="-1": must be an integer string'],
    [{ PORT: '70000' }, 'PORT="70000": must be between 0 and 65535'],
    [{ TASK_TIMEOUT: '0' }, 'TASK_TIMEOUT="0": must be between 1 and 86400'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL="verbose": must be one of DEBUG, INFO, WARNING, ERROR'],
    [{ LOG_LEVEL: 'info' }, 'LOG_LEVEL="info": must be one of DEBUG, INFO, WARNING, ERROR'],
    [{ REFLEX_BLOCK_LEVEL: 'severe' }, 'REFLEX_BLOCK_LEVEL="severe": must be one of low, medium, high, critical'],
    [{ REFLEX_INJECTION_THRESHOLD: '1.5' }, 'REFLEX_INJECTION_THRESHOLD="1.5": must be a number from 0 to 1'],
    [{ REFLEX_INJECTION_THRESHOLD: 'high' }, 'REFLEX_INJECTION_THRESHOLD="high": must be a number from 0 to 1'],
    [{ REFLEX_INJECTION_THRESHOLD: 'NaN' }, 'REFLEX_INJECTION_THRESHOLD="NaN": must be a number from 0 to 1'],
    [{ REFLEX_PII_THRESHOLD: '-0.1' }, 'REFLEX_PII_THRESHOLD="-0.1": must be a number from 0 to 1'],
    [{ REFLEX_PII_THRESHOLD: '0.4.1' }, 'REFLEX_PII_THRESHOLD="0.4.1": must be a number from 0 to 1'],
    [{ REFLEX_PII_THRESHOLD: '1e-1' }, 'REFLEX_PII_THRESHOLD="1e-1": must be a number from 0 to 1'],
    [{ REFLEX_PII_THRESHOLD: '2' }, 'REFLEX_PII_THRESHOLD="2": must be a number from 0 to 1'],
    [{ PLAN_MEMORY_MIN_SIMILARITY: '1.5' }, 'PLAN_MEMORY_MIN_SIMILARITY="1.5": must be a number from 0 to 1'],
    [{ PLAN_MEMORY_MIN_SIMILARITY: 'high' }, 'PLAN_MEMORY_MIN_SIMILARITY="high": must be a number from 0 to 1'],
    [{ LLM_PROVIDER: 'gpt' }, 'LLM_PROVIDER="gpt": must be one of offline, openai, anthropic, llama'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY="yes": must be one of true, false, 1, 0'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL="mysql://db/x": must be a postgres:// or postgresql:// URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL="localhost:6379": must be a redis:// or rediss:// URL'],
    [{ RATE_LIMIT_REDIS_URL: 'localhost:6380' }, 'RATE_LIMIT_REDIS_URL="localhost:6380": must be a redis:// or rediss:// URL'],
    [{ RATE_LIMIT_REDIS_URL: 'http://limits:6379' }, 'RATE_LIMIT_REDIS_URL="http://limits:6379": must be a redis:// or rediss:// URL'],
    [{ QDRANT_URL: 'qdrant:6333' }, 'QDRANT_URL="qdrant:6333": must be an http:// or https:// URL'],
    [
      { QDRANT_COLLECTION_PREFIX: 'ganglion/prod' },
      'QDRANT_COLLECTION_PREFIX="ganglion/prod": must be 1 to 64 letters, digits, _ or -, beginning with a letter or digit',
    ],
    [
      { QDRANT_COLLECTION_PREFIX: '_hidden' },
      'QDRANT_COLLECTION_PREFIX="_hidden": must be 1 to 64 letters, digits, _ or -, beginning with a letter or digit',
    ],
    [{ ARM_PLANNER_URL: 'ftp://planner' }, 'ARM_PLANNER_URL="ftp://planner": must be an http:// or https:// URL'],
    [{ STEP_TIMEOUT: '0' }, 'STEP_TIMEOUT="0": must be between 1 and 86400'],
    [{ ORCHESTRATOR_URL: 'orchestrator:8000' }, 'ORCHESTRATOR_URL="orchestrator:8000": must be an http:// or https:// URL'],
    [{ EXECUTOR_SHELL_ALLOW: 'wc, rm -rf' }, 'EXECUTOR_SHELL_ALLOW="wc, rm -rf": must be command names separated by commas'],
    [{ EXECUTOR_MAX_SANDBOXES: '0' }, 'EXECUTOR_MAX_SANDBOXES="0": must be between 1 and 1000'],
    [{ EXECUTOR_FETCH_ALLOW: 'http://a.com' }, 'EXECUTOR_FETCH_ALLOW="http://a.com": must be host names (or *.domain) separated by commas'],
    [
      { ARM_URL_ALLOW_PRIVATE: '10.0.0.0/8,arms.internal' },
      'ARM_URL_ALLOW_PRIVATE="10.0.0.0/8,arms.internal": must be CIDR networks (127.0.0.0/8, fd00::/8) separated by commas',
    ],
    [{ ARM_URL_ALLOW_PRIVATE: '10.0.0.0/99' }, 'ARM_URL_ALLOW_PRIVATE="10.0.0.0/99": \'10.0.0.0/99\' is not an address or a CIDR network'],
    [
      { WEBHOOK_ALLOW_PRIVATE: 'hooks.internal' },
      'WEBHOOK_ALLOW_PRIVATE="hooks.internal": must be CIDR networks (127.0.0.0/8, fd00::/8) separated by commas',
    ],
    [{ WEBHOOK_ALLOW_PRIVATE: '10.0.0.0/99' }, 'WEBHOOK_ALLOW_PRIVATE="10.0.0.0/99": \'10.0.0.0/99\' is not an address or a CIDR network'],
    [{ WEBHOOK_SECRET_KEY: 'short' }, 'WEBHOOK_SECRET_KEY=(hidden): must be at least 32 characters'],
    [{ WEBHOOK_MAX_ATTEMPTS: '0' }, 'WEBHOOK_MAX_ATTEMPTS="0": must be between 1 and 20'],
    [{ WEBHOOK_RETRY_BASE_MS: '3600001' }, 'WEBHOOK_RETRY_BASE_MS="3600001": must be between 1 and 3600000'],
    [{ WEBHOOK_TIMEOUT: '0' }, 'WEBHOOK_TIMEOUT="0": must be between 1 and 300'],
    [{ TASKS_ACTIVE_PER_TENANT: '-5' }, 'TASKS_ACTIVE_PER_TENANT="-5": must be an integer string'],
    [{ TASK_DEFAULT_MAX_TOKENS: '0' }, 'TASK_DEFAULT_MAX_TOKENS="0": must be between 1 and 1000000000'],
    [{ TASK_MAX_TOKENS: '1000' }, 'TASK_DEFAULT_MAX_TOKENS="20000": must be at most TASK_MAX_TOKENS (1000)'],
    [
      { LLM_PRICES: 'gpt-4o: 0.15' },
      'LLM_PRICES="gpt-4o: 0.15": must be a JSON object of model name to {"input_per_mtok": n, "output_per_mtok": n}',
    ],
    [{ LLM_PRICES: '[1]' }, 'LLM_PRICES="[1]": must be a JSON object of model name to {"input_per_mtok": n, "output_per_mtok": n}'],
    [{ LLM_PRICES: '{"m": 1}' }, 'LLM_PRICES="{\\"m\\": 1}": "m" must be an object with input_per_mtok and output_per_mtok'],
    [
      { LLM_PRICES: '{"m": {"input_per_mtok": -1, "output_per_mtok": 1}}' },
      'LLM_PRICES="{\\"m\\": {\\"input_per_mtok\\": -1, \\"output_per_mtok\\": 1}}": "m".input_per_mtok must be a number of 0 or more',
    ],
    [
      { LLM_PRICES: '{"m": {"input_per_mtok": 1, "output_per_mtok": 1, "per_call": 2}}' },
      'LLM_PRICES="{\\"m\\": {\\"input_per_mtok\\": 1, \\"output_per_mtok\\": 1, \\"per_call\\": 2}}": "m" has unknown keys per_call',
    ],
  ]
  for (const [env, problem] of cases) t.same(problemsOf(env), [problem], JSON.stringify(env))
})

t.test('never echoes secrets', async (t) => {
  t.same(problemsOf({ DATABASE_URL: 'mysql://app:s3cret@db/x' }), [
    'DATABASE_URL="mysql://app:***@db/x": must be a postgres:// or postgresql:// URL',
  ])
  t.same(problemsOf({ CAPABILITY_PRIVATE_KEY: 'x', PORT: 'x' }).length, 1, 'a present key is no problem')
  t.same(problemsOf({ ADMIN_TOKEN: 'short-secret' }), ['ADMIN_TOKEN=(hidden): must be at least 16 characters'])
  t.same(problemsOf({ REDIS_URL: 'http://:s3cret@cache' }), ['REDIS_URL="http://:***@cache": must be a redis:// or rediss:// URL'])
  t.same(problemsOf({ RATE_LIMIT_REDIS_URL: 'limits://:s3cret@limits' }), [
    'RATE_LIMIT_REDIS_URL="limits://:***@limits": must be a redis:// or rediss:// URL',
  ])
})
