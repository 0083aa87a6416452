/**
 * Request schemas of the reflex service, declared once; validators are compiled at start-up
 * by `compileSchema` and the types derived from the same declarations.
 */
import Type from 'typebox'

export const MAX_TEXT_CHARS = 100_000
export const MAX_KEY_CHARS = 512
/** 30 days: longer-lived entries belong in a database, not a cache. */
export const MAX_TTL_SECONDS = 30 * 24 * 3600

/** A threshold of a check's own, in place of the service's setting (REFLEX_INJECTION_THRESHOLD, REFLEX_PII_THRESHOLD). */
const Threshold = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1, description }))

const INJECTION_THRESHOLD =
  'Blocks this check when `injection_score` reaches it (compared to the thousandth), instead of the severity band (REFLEX_BLOCK_LEVEL); ' +
  'default REFLEX_INJECTION_THRESHOLD, unset. Lower blocks more attacks and more harmless texts. ' +
  'Not part of `cache_key`: the same text under two thresholds gets two verdicts.'
const PII_THRESHOLD =
  'Least `confidence` of personal data reported and redacted by this check (compared to the thousandth); ' +
  'default REFLEX_PII_THRESHOLD, 0.4. Lower redacts context-poor guesses too.'

const Flags = {
  user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  check_pii: Type.Optional(Type.Boolean()),
  check_injection: Type.Optional(Type.Boolean()),
  use_cache: Type.Optional(Type.Boolean()),
  injection_threshold: Threshold(INJECTION_THRESHOLD),
  pii_threshold: Threshold(PII_THRESHOLD),
}

export const CheckRequest = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: MAX_TEXT_CHARS }), ...Flags },
  { additionalProperties: false },
)
export type CheckRequest = Type.Static<typeof CheckRequest>

/** `/preprocess` accepts the text as `input` (earlier services) or `text`: one of them is required. */
export const PreprocessRequest = Type.Object(
  {
    input: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_TEXT_CHARS })),
    text: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_TEXT_CHARS })),
    ...Flags,
  },
  { additionalProperties: false, anyOf: [{ required: ['input'] }, { required: ['text'] }] },
)
export type PreprocessRequest = Type.Static<typeof PreprocessRequest>

export const FilterPiiRequest = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: MAX_TEXT_CHARS }),
    // An enum rather than a union of literals: OpenAPI 3.0 has no `const`.
    mode: Type.Optional(Type.Enum(['placeholder', 'mask', 'redact', 'remove', 'hash'])),
    keep_last: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 })),
    pii_threshold: Threshold(
      'Least `confidence` of personal data redacted (compared to the thousandth); default REFLEX_PII_THRESHOLD, 0.4.',
    ),
  },
  { additionalProperties: false },
)
export type FilterPiiRequest = Type.Static<typeof FilterPiiRequest>

export const CacheSetRequest = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: MAX_KEY_CHARS }),
    value: Type.Unknown(),
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TTL_SECONDS })),
  },
  { additionalProperties: false },
)
export type CacheSetRequest = Type.Static<typeof CacheSetRequest>
