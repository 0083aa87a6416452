import { AnswerKeys, CacheTier, CheckEndpoint, Detector, type Limit, RateLimiter, REFLEX_ERRORS, ReflexError } from '@ganglion/reflex'
import t from 'tap'

const coded = { name: 'ReflexError', code: REFLEX_ERRORS.invalidArgument }
const notStrings: unknown[] = [5, null, undefined, {}, ['a'], Buffer.from('a'), Symbol('a')]
const label = (value: unknown) => (typeof value === 'symbol' ? 'a symbol' : `${JSON.stringify(value) ?? 'undefined'} (${typeof value})`)

/** `value` where the API's types want something else: the call a JavaScript caller can make. */
const as = <T>(value: unknown): T => value as T

t.test('a text that is not a string is refused by every detector call', async (t) => {
  const detector = new Detector()
  for (const text of notStrings) {
    t.throws(() => detector.check(as(text)), coded, `check(${label(text)})`)
    t.throws(() => detector.redact(as(text)), coded, `redact(${label(text)})`)
    t.throws(() => detector.cacheKey(as(text)), coded, `cacheKey(${label(text)})`)
    await t.rejects(detector.checkAsync(as(text)), coded, `checkAsync(${label(text)})`)
    await t.rejects(detector.redactAsync(as(text)), coded, `redactAsync(${label(text)})`)
  }
  t.strictSame(detector.stats().checks, 0, 'nothing was checked')
})

t.test('a cache key or value that is not a string, or a lifetime that is not a number, is refused', async (t) => {
  const cache = new CacheTier()
  for (const bad of notStrings) {
    t.throws(() => cache.get(as(bad)), coded, `get(${label(bad)})`)
    t.throws(() => cache.delete(as(bad)), coded, `delete(${label(bad)})`)
    t.throws(() => cache.set(as(bad), '1', 60), coded, `set(${label(bad)}, …)`)
    t.throws(() => cache.set('k', as(bad), 60), coded, `set(k, ${label(bad)})`)
  }
  for (const ttl of ['60', null, undefined, {}]) t.throws(() => cache.set('k', '1', as(ttl)), coded, `ttlSeconds ${label(ttl)}`)
  t.equal(cache.stats().entries, 0)
})

t.test('a limiter key that is not a string is refused', async (t) => {
  const limiter = new RateLimiter()
  for (const key of notStrings) t.throws(() => limiter.take(as(key), { capacity: 1, windowMs: 1000 }), coded, `take(${label(key)})`)
})

t.test('an option of the wrong type is refused', async (t) => {
  const detector = new Detector()
  t.throws(() => new Detector(as({ blockLevel: 5 })), coded, 'blockLevel: 5')
  t.throws(() => new Detector(as({ memoMaxEntries: 'many' })), coded, 'memoMaxEntries: "many"')
  t.throws(() => new Detector(as({ memoMaxBytes: 'many' })), coded, 'memoMaxBytes: "many"')
  for (const flags of [{ checkPii: 'yes' }, { checkInjection: 1 }, { checkPii: null }]) {
    t.throws(() => detector.check('x', as(flags)), coded, `check flags ${JSON.stringify(flags)}`)
    t.throws(() => detector.cacheKey('x', as(flags)), coded, `cacheKey flags ${JSON.stringify(flags)}`)
    await t.rejects(detector.checkAsync('x', as(flags)), coded, `checkAsync flags ${JSON.stringify(flags)}`)
  }
  for (const options of [{ mode: 5 }, { mode: 'mask', keepLast: 'all' }, { mode: 'hash', salt: 5 }]) {
    t.throws(() => detector.redact('x', as(options)), coded, `redact options ${JSON.stringify(options)}`)
  }
  t.throws(() => new CacheTier(as({ maxEntries: 'many' })), coded, 'maxEntries: "many"')
  t.throws(() => new CacheTier(as({ maxBytes: 'many' })), coded, 'maxBytes: "many"')
  t.throws(() => new RateLimiter(as({ maxKeys: 'many' })), coded, 'maxKeys: "many"')
})

t.test('an endpoint refuses parts, bodies, request ids and tenants of the wrong type', async (t) => {
  const parts = { detector: new Detector(), cache: new CacheTier(), keys: new AnswerKeys('sixteen bytes or more') }
  t.throws(() => new CheckEndpoint({ ...parts, detector: as({}) }), coded, 'a detector that is none')
  t.throws(() => new CheckEndpoint({ ...parts, cache: as(parts.detector) }), coded, 'a cache tier that is none')
  t.throws(() => new CheckEndpoint({ ...parts, keys: as({}) }), coded, 'answer keys that are none')
  const endpoint = new CheckEndpoint(parts)
  const tenant = { tenant: 'acme' }
  for (const body of ['{"text":"a","user_id":"u"}', null, 5, [123, 125]]) {
    t.throws(() => endpoint.answer(as(body), 'r', tenant), coded, `body ${JSON.stringify(body)}`)
  }
  const good = Buffer.from('{"text":"a","user_id":"u"}')
  for (const requestId of [5, null, undefined])
    t.throws(() => endpoint.answer(good, as(requestId), tenant), coded, `request id ${requestId}`)
  for (const who of [undefined, null, 'acme', { tenant: 5 }, { tenant: null }, {}]) {
    t.throws(() => endpoint.answer(good, 'r', as(who)), coded, `whom for ${JSON.stringify(who)}`)
  }
  t.throws(() => endpoint.answer(good, 'r', { tenant: 'acme', rateLimit: as('5') }), coded, 'a rate limit that is a string')
  t.throws(() => endpoint.answer(good, 'r', { tenant: 'acme', rateLimit: as({ limit: '5', remaining: 1, resetMs: 0 }) }), coded)
  t.throws(() => new AnswerKeys(as(5)), coded, 'a secret that is a number')
  t.throws(() => parts.keys.key(as(5), 'text'), coded, 'a tenant that is a number')
})

// A limit, or the endpoint's options, not of the shape they take is refused with the catalogue's code.
t.test('a limit or endpoint options of the wrong shape are refused with a ReflexError', async (t) => {
  const limiter = new RateLimiter()
  const parts = { detector: new Detector(), cache: new CacheTier(), keys: new AnswerKeys('sixteen bytes or more') }
  t.throws(() => limiter.take('k', as<Limit>(null)), ReflexError, 'take(k, null)')
  t.throws(() => limiter.take('k', as<Limit>(undefined)), ReflexError, 'take(k, undefined)')
  t.throws(() => new CheckEndpoint(as({ ...parts, keys: undefined })), ReflexError, 'an endpoint without answer keys')
  t.throws(() => new CheckEndpoint({ ...parts, replyRoom: -1 }), ReflexError, 'replyRoom: -1')
  t.throws(() => new CheckEndpoint({ ...parts, replyRoom: as('64') }), ReflexError, 'replyRoom: "64"')
  t.throws(() => limiter.take('k', as({ capacity: '5', windowMs: 1000 })), coded, 'capacity: "5" is of the wrong type, not out of range')
})
