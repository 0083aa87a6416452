/**
 * Request schemas of the reflex service, declared once; validators are compiled at start-up
 * by `compileSchema` and the types derived from the same declarations.
 */
import Type from 'typebox'

export const MAX_TEXT_CHARS = 100_000
export const MAX_KEY_CHARS = 512
/** 30 days: longer-lived entries belong in a database, not a cache. */
export const MAX_TTL_SECONDS = 30 * 24 * 3600

const Flags = {
  user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  check_pii: Type.Optional(Type.Boolean()),
  check_injection: Type.Optional(Type.Boolean()),
  use_cache: Type.Optional(Type.Boolean()),
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
