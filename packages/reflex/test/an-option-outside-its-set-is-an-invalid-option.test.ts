import {
  AnswerKeys,
  CacheTier,
  CheckEndpoint,
  Detector,
  type Limit,
  RateLimiter,
  REFLEX_ERRORS,
  type RedactOptions,
  ReflexError,
} from '@ganglion/reflex'
import t from 'tap'
import { show } from './fixtures/reflex.js'

const code = REFLEX_ERRORS.invalidOption
const coded = { name: 'ReflexError', code }

t.test('an unknown block level is refused', async (t) => {
  for (const blockLevel of ['bogus', 'none', 'HIGH', '', 'high ']) {
    t.throws(() => new Detector({ blockLevel } as never), coded, show(blockLevel))
  }
  t.equal(code, 'REFLEX_ERR_INVALID_OPTION')
  t.throws(() => new Detector({ blockLevel: 'bogus' } as never), ReflexError, 'an instance of ReflexError')
})

t.test('an unknown redaction mode is refused, by redact and redactAsync', async (t) => {
  const detector = new Detector()
  for (const mode of ['bogus', 'Mask', '', 'hash ']) {
    const options = { mode } as unknown as RedactOptions
    t.throws(() => detector.redact('mail ada@example.com', options), coded, show(mode))
    await t.rejects(detector.redactAsync('mail ada@example.com', options), coded, `async ${show(mode)}`)
  }
})

t.test('a cache lifetime under 1 ms is refused; 1 ms is taken', async (t) => {
  const cache = new CacheTier()
  for (const ttlSeconds of [0, 0.0004, -1, -0.001, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    t.throws(() => cache.set('k', '1', ttlSeconds), coded, `ttlSeconds ${ttlSeconds}`)
  }
  t.equal(cache.stats().entries, 0, 'nothing was stored')
  const lifetime = (ttlSeconds: number) => {
    const { createdAt, expiresAt } = cache.set('k', '1', ttlSeconds)
    return expiresAt.getTime() - createdAt.getTime()
  }
  t.equal(lifetime(0.001), 1, '1 ms is taken')
  t.equal(lifetime(0.0005), 1, '0.5 ms rounds to 1 ms')
})

t.test('a capacity under 1 or not an integer, a window under 1 ms, a cost not a whole number are refused', async (t) => {
  const limiter = new RateLimiter()
  const limits: Limit[] = [
    { capacity: 0, windowMs: 1000 },
    { capacity: -1, windowMs: 1000 },
    { capacity: 1.5, windowMs: 1000 },
    { capacity: 2 ** 32, windowMs: 1000 },
    { capacity: Number.NaN, windowMs: 1000 },
    { capacity: 1, windowMs: 0 },
    { capacity: 1, windowMs: 0.5 },
    { capacity: 1, windowMs: -1000 },
    { capacity: 1, windowMs: Number.NaN },
    { capacity: 1, windowMs: Number.POSITIVE_INFINITY },
  ]
  for (const limit of limits) t.throws(() => limiter.take('k', limit), coded, JSON.stringify(limit))
  for (const cost of [1.5, -1, -0.5, Number.NaN, 2 ** 32])
    t.throws(() => limiter.take('k', { capacity: 5, windowMs: 1000 }, cost), coded, `cost ${cost}`)
  t.equal(limiter.take('k', { capacity: 1, windowMs: 1 }).allowed, true, 'a window of 1 ms and a capacity of 1 are taken')
  t.equal(limiter.take('j', { capacity: 5, windowMs: 1000 }, 0).allowed, true, 'a cost of 0 is taken')
})

t.test('a rate limit for the head out of range, or an answer key secret under 16 bytes, is refused', async (t) => {
  const endpoint = new CheckEndpoint({ detector: new Detector(), cache: new CacheTier(), keys: new AnswerKeys('x'.repeat(16)) })
  const good = Buffer.from('{"text":"a"}')
  const limits = [
    { limit: -1, remaining: 0, resetMs: 0 },
    { limit: 1.5, remaining: 0, resetMs: 0 },
    { limit: 2 ** 32, remaining: 0, resetMs: 0 },
    { limit: 5, remaining: -1, resetMs: 0 },
    { limit: 5, remaining: Number.NaN, resetMs: 0 },
    { limit: 5, remaining: 1, resetMs: -1 },
    { limit: 5, remaining: 1, resetMs: Number.NaN },
    { limit: 5, remaining: 1, resetMs: Number.POSITIVE_INFINITY },
  ]
  for (const rateLimit of limits)
    t.throws(() => endpoint.answer(good, 'r', { tenant: 'acme', rateLimit }), coded, JSON.stringify(rateLimit))
  t.ok(
    endpoint.answer(good, 'r', { tenant: 'acme', rateLimit: { limit: 2 ** 32 - 1, remaining: 0, resetMs: 0 } }),
    'the largest count is taken',
  )
  t.throws(() => new AnswerKeys('x'.repeat(15)), coded, 'a secret of 15 bytes')
})

// napi would read a negative number into an unsigned one by wrapping it (-1 as 4294967295): counts are checked instead.
t.test('a negative count is refused rather than read as a huge one', async (t) => {
  const detector = new Detector()
  t.throws(() => detector.redact('mail ada@example.com', { mode: 'mask', keepLast: -1 }), coded, 'keepLast: -1')
  t.throws(() => new CacheTier({ maxEntries: -1 }), coded, 'maxEntries: -1')
  t.throws(() => new RateLimiter({ maxKeys: -1 }), coded, 'maxKeys: -1')
  t.throws(() => new Detector({ memoMaxEntries: -1 }), coded, 'memoMaxEntries: -1')
})

t.test('a threshold that is not a number from 0 to 1 is refused, wherever it is given', async (t) => {
  const detector = new Detector()
  const keys = new AnswerKeys('x'.repeat(16))
  for (const bad of [-0.01, 1.01, 2, -1, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null, true]) {
    for (const name of ['injectionThreshold', 'piiThreshold']) {
      const options = { [name]: bad } as never
      const what = `${name}: ${String(bad)}`
      t.throws(() => new Detector(options), coded, `new Detector, ${what}`)
      t.throws(() => detector.check('hello', options), coded, `check, ${what}`)
      t.throws(() => detector.checkJson('hello', options), coded, `checkJson, ${what}`)
      await t.rejects(detector.checkAsync('hello', options), coded, `checkAsync, ${what}`)
      t.throws(() => detector.cacheKey('hello', options), coded, `cacheKey, ${what}`)
      t.throws(() => keys.key('acme', 'hello', options), coded, `AnswerKeys.key, ${what}`)
    }
    t.throws(() => detector.redact('hello', { piiThreshold: bad } as never), coded, `redact, ${String(bad)}`)
    await t.rejects(detector.redactAsync('hello', { piiThreshold: bad } as never), coded, `redactAsync, ${String(bad)}`)
  }
  for (const good of [0, 0.5, 1]) {
    t.doesNotThrow(() => detector.check('hello', { injectionThreshold: good, piiThreshold: good }), `${good} is taken`)
    t.doesNotThrow(() => new Detector({ injectionThreshold: good, piiThreshold: good }), `${good} is taken by a detector`)
  }
})
