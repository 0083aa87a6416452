/**
 * The same-detection baseline of the addon bench (bench/baseline/same/check.ts) answers as the
 * addon's `check` does, field by field, on every corpus text and on the bench's own texts: the
 * ≥ 5× target is read against it, so it must do the same work, not less. (The modules it is made
 * of have their own tests beside this one.)
 */
import t from 'tap'
import { sameCheck } from '../../bench/baseline/same/check.js'
import { TEXT_ATTACK, TEXT_CLEAN, TEXT_PII, TEXT_TYPOGRAPHIC } from '../../bench/texts.js'
import { createEngine } from '../../src/reflex/engine.js'
import { corpusTexts } from '../helpers/corpus.js'

const engine = createEngine()

/** What both answers hold, as text: the cache key aside (its hash differs by design). */
function answer(r: {
  piiMatches: ReadonlyArray<{ type: string; start: number; end: number; matchedText: string; confidence: number }>
  redactedText: string
  injectionScore: number
  severity: string
  injectionMatches: ReadonlyArray<{ type: string; start: number; end: number; matchedText: string; severity: string; confidence: number }>
  blocked: boolean
  routing: { route: string; complexity: string; suggestedArms: readonly string[] }
}): string {
  // Confidences and the score are f32 in the core.
  const f = (x: number): string => Math.fround(x).toPrecision(6)
  return JSON.stringify({
    pii: r.piiMatches.map((m) => [m.type, m.start, m.end, m.matchedText, f(m.confidence)]),
    redacted: r.redactedText,
    score: f(r.injectionScore),
    severity: r.severity,
    injection: r.injectionMatches.map((m) => [m.type, m.start, m.end, m.matchedText, m.severity, f(m.confidence)]),
    blocked: r.blocked,
    routing: r.routing,
  })
}

const corpus = corpusTexts()

t.test('the bench texts get the same answer from the baseline and the addon', async (t) => {
  for (const [name, text] of Object.entries({ TEXT_ATTACK, TEXT_CLEAN, TEXT_PII, TEXT_TYPOGRAPHIC })) {
    t.equal(answer(sameCheck(text)), answer(engine.check(text, { useCache: false })), name)
  }
  // Not vacuous: the attack text is blocked with several families, the PII text has findings.
  const attack = sameCheck(TEXT_ATTACK)
  t.ok(attack.blocked && new Set(attack.injectionMatches.map((m) => m.type)).size >= 4)
  t.ok(sameCheck(TEXT_PII).piiMatches.length >= 2)
})

t.test('every corpus text gets the same answer, with each detector on or off', async (t) => {
  t.ok(corpus.length > 800, `${corpus.length} texts`)
  for (const flags of [{}, { checkPii: false }, { checkInjection: false }]) {
    const differing = corpus.filter((text) => answer(sameCheck(text, flags)) !== answer(engine.check(text, { ...flags, useCache: false })))
    for (const text of differing.slice(0, 5)) t.comment(`differs: ${JSON.stringify(text)}`)
    t.equal(differing.length, 0, `texts answered differently with ${JSON.stringify(flags)}`)
  }
})

t.test('the cache key has the core key format and follows the text and the flags', async (t) => {
  const key = sameCheck(TEXT_PII).cacheKey
  t.match(key, /^[0-9a-f]{32}$/)
  t.equal(key.length, engine.check(TEXT_PII, { useCache: false }).cacheKey.length)
  t.not(sameCheck(TEXT_PII, { checkPii: false }).cacheKey, key)
  t.not(sameCheck(TEXT_CLEAN).cacheKey, key)
  t.equal(sameCheck(TEXT_PII).cacheKey, key)
})
