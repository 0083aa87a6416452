/**
 * The shapes the API takes and gives. Results have the field names of Ganglion's HTTP replies
 * (`POST /api/v1/check`, `POST /filter/pii`), so a server can send them on as they are; options are
 * camelCase, as JavaScript options are.
 */

/** An injection severity at which a check is blocked. */
export type BlockLevel = 'low' | 'medium' | 'high' | 'critical'

/** An injection severity; `none` when nothing was found. */
export type Severity = 'none' | BlockLevel

export interface DetectorOptions {
  /** Injection severity at which a check is blocked (`status: 'blocked'`). Default `high`. */
  blockLevel?: BlockLevel
  /**
   * When given (0..1), a check is blocked when its `injection_score` reaches it, instead of by
   * `blockLevel`: lower blocks more attacks and more harmless texts. Default: none (the level decides).
   */
  injectionThreshold?: number
  /**
   * Least `confidence` (0..1) of personal data reported and redacted. Default 0.4: lower redacts
   * more, context-poor guesses too; higher redacts only the surest matches.
   */
  piiThreshold?: number
  /** Results kept for texts checked again, such as cache hits (default 4096; 0 keeps none). */
  memoMaxEntries?: number
  /** Most bytes those results hold (default 32 MiB). */
  memoMaxBytes?: number
}

/**
 * Which detectors a check runs, and thresholds of its own. Both flags default to true, and both are
 * part of the cache key; the thresholds (0..1) default to the detector's and are not part of it:
 * they judge a check, and a check under other thresholds is judged afresh, never reused. A
 * threshold is compared in thousandths, as results show scores and confidences.
 */
export interface CheckOptions {
  checkPii?: boolean
  checkInjection?: boolean
  /** This check's `DetectorOptions.injectionThreshold`. */
  injectionThreshold?: number
  /** This check's `DetectorOptions.piiThreshold`. */
  piiThreshold?: number
}

/** Personal data found in a text. Offsets are UTF-16 code units: `text.slice(start, end) === matched_text`. */
export interface PiiMatch {
  /** `EMAIL`, `PHONE`, `CREDIT_CARD`, `SSN`, `IBAN`, `IP_ADDRESS`, `MAC_ADDRESS`, `CRYPTO_WALLET`, `API_KEY`, `PRIVATE_KEY`, `PASSWORD`, `DATE_OF_BIRTH`, `UK_NHS`, `PASSPORT`, `UK_NINO`, `IN_AADHAAR`, `IN_PAN`, `AU_TFN`, `AU_ABN`, `AU_ACN`, `AU_MEDICARE`, `ES_NIF`, `ES_NIE`, `IT_FISCAL_CODE`, `PL_PESEL`, `SG_NRIC`, `KR_RRN`, `US_ITIN`, `FI_PERSONAL_ID`, `TH_TNIN`, `SG_UEN`, `IT_VAT_CODE`, `IN_GSTIN`, `KR_BRN`, `NG_NIN`, `CA_SIN`, `DRIVER_LICENSE` */
  type: string
  start: number
  end: number
  matched_text: string
  /** 0..1, three decimals. */
  confidence: number
}

/** A prompt-injection pattern found in a text, with offsets as `PiiMatch`'s. */
export interface InjectionMatch {
  /** `instruction_override`, `prompt_leak`, `jailbreak`, `system_impersonation`, `delimiter_spoofing`, `embedded_instruction`, `tool_abuse`, `goal_hijack`, `payload_splitting`, `encoded_payload`; `classifier` for the learned stage's finding (the stretch its score came from, when no rule match explains the verdict) */
  type: string
  start: number
  end: number
  matched_text: string
  severity: Severity
  /** 0..1, three decimals. */
  confidence: number
}

/** Where a checked request should go next, and which arms it probably needs. */
export interface Routing {
  /** `blocked` or `orchestrator`. (Ganglion's check endpoint answers `cache` for a hit that is not blocked.) */
  route: 'orchestrator' | 'blocked'
  complexity: 'simple' | 'moderate' | 'complex'
  /** Of planner, retriever, executor, coder, judge, guardian, in that order. */
  suggested_arms: string[]
}

/** A check of one text: the `/api/v1/check` reply's fields less `request_id`, the cache's and the time. */
export interface CheckResult {
  /** `blocked` when the injection score reaches the injection threshold, or without one, when the severity reaches the block level. */
  status: 'success' | 'blocked'
  allowed: boolean
  /** A hash of the normalised text and the check options (32 hex characters): texts differing only in case, spacing or look-alike characters share it. */
  cache_key: string
  pii_detected: boolean
  pii_matches: PiiMatch[]
  /** The text with each match replaced by a numbered placeholder (`[EMAIL_1]`). */
  redacted_text: string
  injection_detected: boolean
  /** 0..1: how likely the text carries an injection. */
  injection_score: number
  /** The worst severity found. */
  severity: Severity
  injection_matches: InjectionMatch[]
  routing: Routing
}

/** How `redact` replaces what it finds. */
export interface RedactOptions {
  /**
   * `placeholder` (default; `[EMAIL_1]`, numbered per type), `mask` (all but the last `keepLast`
   * letters and digits become `*`), `redact` (`[REDACTED]`), `remove` (nothing), `hash` (a salted
   * SHA-256 digest, `[EMAIL:3f2a…]`, the same for the same value and salt).
   */
  mode?: 'placeholder' | 'mask' | 'redact' | 'remove' | 'hash'
  /** With `mask`: how many trailing letters and digits stay visible (default 4). */
  keepLast?: number
  /** With `hash`: the salt mixed into each digest (default empty). Keep it secret, or digests of short values can be reversed by trying them all. */
  salt?: string
  /** Least `confidence` (0..1) of personal data redacted; default the detector's `piiThreshold`. */
  piiThreshold?: number
}

/** A redaction: the `/filter/pii` reply. */
export interface RedactResult {
  redacted_text: string
  pii_detected: boolean
  pii_matches: PiiMatch[]
}

/** Counters of the checks since a detector was made. */
export interface DetectorStats {
  checks: number
  blocked: number
  piiDetected: number
  injectionDetected: number
}

export interface CacheTierOptions {
  /** Most entries held (default 100,000). */
  maxEntries?: number
  /** Most bytes of keys and values held (default 256 MiB). */
  maxBytes?: number
}

/** A stored value and its lifetime. */
export interface CacheEntry {
  key: string
  /** The stored JSON text. */
  value: string
  createdAt: Date
  expiresAt: Date
}

export interface CacheTierStats {
  hits: number
  misses: number
  /** Entries held, expired ones not yet dropped included. */
  entries: number
  /** Bytes of keys and values held. */
  bytes: number
  /** Live entries dropped to make room. */
  evictions: number
  /** Expired entries dropped. */
  expirations: number
}

export interface RateLimiterOptions {
  /** Most buckets held (default 100,000); refilled buckets go first when more arrive. */
  maxKeys?: number
}

/** A bucket: `capacity` tokens, refilled continuously over `windowMs`. */
export interface Limit {
  /** Tokens a full bucket holds: the burst, and the count allowed per window. An integer ≥ 1. */
  capacity: number
  /** Milliseconds an empty bucket takes to fill (≥ 1). */
  windowMs: number
}

/** The outcome of one `take`, with what the `RateLimit-*` and `Retry-After` headers need. */
export interface RateLimitDecision {
  allowed: boolean
  /** The capacity, for `RateLimit-Limit`. */
  limit: number
  /** Whole tokens left, for `RateLimit-Remaining`. */
  remaining: number
  /** Milliseconds until the bucket is full again, for `RateLimit-Reset`. */
  resetMs: number
  /** Milliseconds until the request could pass; 0 when allowed. For `Retry-After`. */
  retryAfterMs: number
}
