import t from 'tap'
import { ConfigError, loadConfig } from '../../src/config/load.js'

t.test('lists every problem in one ConfigError', async (t) => {
  const err = t.throws(() => loadConfig({ PORT: 'x', CACHE_TTL: '0', LOG_LEVEL: 'LOUD', REDIS_URL: 'nope', MAX_PARALLEL_ARMS: '5' }))
  t.ok(err instanceof ConfigError)
  const problems = (err as ConfigError).problems
  t.equal(problems.length, 4)
  t.match(problems.join('\n'), /PORT="x"/)
  t.match(problems.join('\n'), /CACHE_TTL="0"/)
  t.match(problems.join('\n'), /LOG_LEVEL="LOUD"/)
  t.match(problems.join('\n'), /REDIS_URL="nope"/)
  t.match((err as Error).message, /^Invalid configuration \(4 problems\):\n {2}- /)
  for (const p of problems) t.ok((err as Error).message.includes(p), 'the message lists it')
})
