import t from 'tap'
import { createLogger, pinoLevel } from '../../src/log.js'

t.test('maps LOG_LEVEL names to pino levels', async (t) => {
  t.equal(pinoLevel('DEBUG'), 'debug')
  t.equal(pinoLevel('INFO'), 'info')
  t.equal(pinoLevel('WARNING'), 'warn')
  t.equal(pinoLevel('ERROR'), 'error')
})

t.test('honours the level and passes every line through the redact hook', async (t) => {
  const lines: string[] = []
  const logger = createLogger({
    name: 'test',
    level: 'WARNING',
    redactor: { redact: (line) => line.replace(/[\w.]+@[\w.]+\.com/g, '[EMAIL]'), find: () => [] },
    destination: { write: (line: string) => void lines.push(line) },
  })
  logger.info('dropped below WARNING')
  logger.warn({ user: 'bob@example.com' }, 'mail from bob@example.com')
  t.equal(lines.length, 1)
  const entry = JSON.parse(lines[0]!) as Record<string, unknown>
  t.equal(entry.msg, 'mail from [EMAIL]')
  t.equal(entry.user, '[EMAIL]')
  t.equal(entry.name, 'test')
  t.equal(entry.level, 40)
})
