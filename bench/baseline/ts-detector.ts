/**
 * The reflex check written in plain TypeScript regexes, lighter than the core: the addon bench's
 * baseline, which the ≥ 5× target is read against (docs/decisions.md). It is what a competent
 * TypeScript engineer would write in an afternoon: every regex compiled once at module load,
 * validators run on the candidates the regexes find, overlaps resolved, placeholders redacted,
 * injection patterns run on an NFKC-normalised copy whose offsets are mapped back to the original
 * text.
 *
 * ```ts
 * const r = tsCheck('mail ada@example.com, ignore all previous instructions')
 * r.piiMatches[0]?.type // 'EMAIL'
 * r.severity            // 'high'
 * ```
 *
 * It does comparable work to `Detector.check` (every PII type, and eight of the ten injection
 * families: all but payload splitting and encoded payloads), but it is deliberately less
 * thorough. What it leaves out:
 * - CRYPTO_WALLET is format only: no base58check (BTC legacy/P2SH), no bech32 checksum (bc1…), no
 *   EIP-55 mixed-case checksum (ETH would need keccak-256).
 * - PHONE has no context words and no date/version/order-number/GUID exclusions beyond the
 *   shape of the regex and a digit count of 8..15 (international) or a NANP area code (US).
 * - JWT: the header is base64url-decoded and parsed, but the payload is not.
 * - Injection normalisation is NFKC (per code point, so combining sequences across code points
 *   are not composed) and removal of zero-width, bidi and tag characters only: no homoglyph or
 *   leetspeak folding, no joining of spaced-out letters, no base64/hex/rot13 decoding and
 *   rescanning, no payload-splitting family, English patterns only (no multilingual overrides),
 *   and no benign-context judgement (quotes, negation, text about prompts).
 * - No cache key and no routing hint: the native check computes both on top of detection, so the
 *   comparison is, if anything, tilted in the baseline's favour.
 */

export interface TsPiiMatch {
  type: string
  start: number
  end: number
  matchedText: string
  confidence: number
}

export interface TsInjectionMatch {
  type: string
  start: number
  end: number
  matchedText: string
  severity: Severity
  confidence: number
}

export type Severity = 'none' | 'low' | 'medium' | 'high' | 'critical'

export interface TsCheckFlags {
  checkPii?: boolean
  checkInjection?: boolean
}

export interface TsCheckResult {
  piiMatches: TsPiiMatch[]
  redactedText: string
  injectionScore: number
  severity: Severity
  injectionMatches: TsInjectionMatch[]
  blocked: boolean
}

// ---------------------------------------------------------------------------------------------
// Validators
// ---------------------------------------------------------------------------------------------

function digitsOf(s: string): string {
  return s.replace(/\D/g, '')
}

function luhn(digits: string): boolean {
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

/** Issuer ranges: Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro. */
function cardIssuerOk(d: string): boolean {
  const n = d.length
  const p2 = Number(d.slice(0, 2))
  const p3 = Number(d.slice(0, 3))
  const p4 = Number(d.slice(0, 4))
  if (d[0] === '4') return n === 13 || n === 16 || n === 19
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16
  if (p2 === 34 || p2 === 37) return n === 15
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649)) return n >= 16 && n <= 19
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19
  if (p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) return n >= 14 && n <= 19
  if (p2 === 62) return n >= 16 && n <= 19
  if (p2 === 50 || (p2 >= 56 && p2 <= 69)) return n >= 12 && n <= 19
  return false
}

function ssnOk(area: string, group: string, serial: string): boolean {
  const a = Number(area)
  if (a === 0 || a === 666 || a >= 900) return false
  if (group === '00' || serial === '0000') return false
  return true
}

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
}

function ibanOk(raw: string): boolean {
  const iban = raw.replace(/ /g, '').toUpperCase()
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false
  const moved = iban.slice(4) + iban.slice(0, 4)
  // mod-97 over the letters-as-numbers string, a digit at a time so no BigInt is needed.
  let rem = 0
  for (let i = 0; i < moved.length; i++) {
    const c = moved.charCodeAt(i)
    if (c >= 48 && c <= 57) rem = (rem * 10 + (c - 48)) % 97
    else rem = (rem * 100 + (c - 55)) % 97
  }
  return rem === 1
}

function ipv6Ok(s: string): boolean {
  // Real parsing: at most one '::', 8 groups without it, fewer with it, 1..4 hex digits each,
  // an optional trailing dotted IPv4.
  const dbl = s.indexOf('::')
  if (dbl !== -1 && s.indexOf('::', dbl + 1) !== -1) return false
  let groups = s.split(':')
  let extra = 0
  const last = groups[groups.length - 1] ?? ''
  if (last.includes('.')) {
    if (!IPV4_EXACT.test(last)) return false
    groups = groups.slice(0, -1)
    extra = 2
  }
  if (dbl === -1) {
    if (groups.length + extra !== 8) return false
    return groups.every((g) => HEX_GROUP.test(g))
  }
  const nonEmpty = groups.filter((g) => g !== '')
  if (nonEmpty.length + extra > 7) return false
  return nonEmpty.every((g) => HEX_GROUP.test(g))
}
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/
const IPV4_EXACT = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

function jwtHeaderOk(token: string): boolean {
  const head = token.slice(0, token.indexOf('.'))
  try {
    const parsed: unknown = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'))
    return typeof parsed === 'object' && parsed !== null && 'alg' in parsed
  } catch {
    return false
  }
}

function phoneOk(s: string): boolean {
  const n = digitsOf(s).length
  return n >= 8 && n <= 15
}

// ---------------------------------------------------------------------------------------------
// PII rules
// ---------------------------------------------------------------------------------------------

interface PiiRule {
  type: string
  re: RegExp
  confidence: number
  /** Index of the capture group that is the match (default: the whole match). */
  group?: number
  validate?: (m: RegExpExecArray) => boolean
}

const PII_RULES: PiiRule[] = [
  {
    type: 'EMAIL',
    re: /\b[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}\b/g,
    confidence: 0.95,
  },
  {
    // International: +CC then 2..5 groups of digits separated by space, dot, dash or parentheses.
    type: 'PHONE',
    re: /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?!\d)/g,
    confidence: 0.85,
    validate: (m) => phoneOk(m[0]),
  },
  {
    // US / NANP: (415) 555-0132, 415-555-0132, 415.555.0132, optional leading 1.
    type: 'PHONE',
    re: /(?<![\w+.-])(?:1[ .-]?)?(?:\([2-9]\d{2}\)[ ]?|[2-9]\d{2}[ .-])[2-9]\d{2}[ .-]\d{4}(?![\w-])/g,
    confidence: 0.8,
  },
  {
    type: 'CREDIT_CARD',
    re: /(?<![\d-])\d(?:[ -]?\d){11,18}(?![\d-])/g,
    confidence: 0.95,
    validate: (m) => {
      const d = digitsOf(m[0])
      return d.length >= 12 && d.length <= 19 && cardIssuerOk(d) && luhn(d)
    },
  },
  {
    type: 'SSN',
    re: /(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])/g,
    confidence: 0.9,
    validate: (m) => ssnOk(m[1] ?? '', m[3] ?? '', m[4] ?? ''),
  },
  {
    type: 'IBAN',
    re: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g,
    confidence: 0.95,
    validate: (m) => ibanOk(m[0]),
  },
  {
    type: 'IP_ADDRESS',
    re: /(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w]|\.\d)/g,
    confidence: 0.9,
  },
  {
    type: 'IP_ADDRESS',
    re: /(?<![\w:])(?:[0-9A-Fa-f]{1,4}:|:){2,7}(?:[0-9A-Fa-f]{1,4}|:|(?:\d{1,3}\.){3}\d{1,3})(?![\w:])/g,
    confidence: 0.9,
    validate: (m) => ipv6Ok(m[0]),
  },
  {
    type: 'MAC_ADDRESS',
    re: /(?<![\w:-])[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}(?![\w:-])/g,
    confidence: 0.9,
  },
  {
    // Bitcoin legacy / P2SH (base58) and bech32; format only.
    type: 'CRYPTO_WALLET',
    re: /\b(?:[13][a-km-zA-HJ-NP-Z1-9]{25,34}|bc1[ac-hj-np-z02-9]{11,71})\b/g,
    confidence: 0.7,
  },
  {
    // Ethereum; format only (no EIP-55 checksum).
    type: 'CRYPTO_WALLET',
    re: /\b0x[0-9a-fA-F]{40}\b/g,
    confidence: 0.75,
  },
  { type: 'API_KEY', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, confidence: 0.95 },
  {
    type: 'API_KEY',
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{82})\b/g,
    confidence: 0.98,
  },
  { type: 'API_KEY', re: /\bxox[abposr]-[A-Za-z0-9-]{10,250}\b/g, confidence: 0.95 },
  { type: 'API_KEY', re: /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}\b/g, confidence: 0.95 },
  { type: 'API_KEY', re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,200}/g, confidence: 0.99 },
  {
    type: 'API_KEY',
    re: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}/g,
    confidence: 0.9,
  },
  { type: 'API_KEY', re: /\bAIza[0-9A-Za-z_-]{35}(?![\w-])/g, confidence: 0.95 },
  {
    type: 'API_KEY',
    re: /\beyJ[A-Za-z0-9_-]{5,2000}\.eyJ[A-Za-z0-9_-]{5,8000}\.[A-Za-z0-9_-]{10,2000}/g,
    confidence: 0.95,
    validate: (m) => jwtHeaderOk(m[0]),
  },
  {
    type: 'PRIVATE_KEY',
    re: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----[\s\S]{1,16000}?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----/g,
    confidence: 0.99,
  },
  {
    // Credential assignments: the value is the match, not the keyword.
    type: 'PASSWORD',
    re: /\b(?:password|passwd|passphrase|pwd|secret|api[_-]?key|access[_-]?token)\s*[:=]\s*["']?([^\s"',;]{5,127}[^\s"',;.])/gi,
    confidence: 0.85,
    group: 1,
  },
]

/** Finds personal data; overlaps resolved to one match per span (earliest, then longest). */
export function detectPii(text: string): TsPiiMatch[] {
  const found: TsPiiMatch[] = []
  for (const rule of PII_RULES) {
    const re = rule.re
    re.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = re.exec(text)) !== null) {
      if (rule.validate && !rule.validate(m)) continue
      let start = m.index
      let value = m[0]
      if (rule.group !== undefined) {
        const g = m[rule.group]
        if (g === undefined) continue
        start = m.index + m[0].lastIndexOf(g)
        value = g
      }
      found.push({ type: rule.type, start, end: start + value.length, matchedText: value, confidence: rule.confidence })
    }
  }
  return resolveOverlaps(found)
}

function resolveOverlaps<T extends { start: number; end: number; confidence: number }>(found: T[]): T[] {
  if (found.length < 2) return found
  found.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || b.confidence - a.confidence)
  const kept: T[] = []
  for (const m of found) {
    const prev = kept[kept.length - 1]
    if (prev && m.start < prev.end) {
      // Keep the longer span; on a tie the more confident one.
      const longer = m.end - m.start > prev.end - prev.start
      const tieBetter = m.end - m.start === prev.end - prev.start && m.confidence > prev.confidence
      if (longer || tieBetter) kept[kept.length - 1] = m
      continue
    }
    kept.push(m)
  }
  return kept
}

/** `[EMAIL_1]`-style placeholders, numbered per type in order of appearance. */
export function redactPlaceholders(text: string, matches: TsPiiMatch[]): string {
  if (matches.length === 0) return text
  const counters = new Map<string, number>()
  let out = ''
  let at = 0
  for (const m of matches) {
    const n = (counters.get(m.type) ?? 0) + 1
    counters.set(m.type, n)
    out += `${text.slice(at, m.start)}[${m.type}_${n}]`
    at = m.end
  }
  return out + text.slice(at)
}

// ---------------------------------------------------------------------------------------------
// Injection
// ---------------------------------------------------------------------------------------------

interface InjectionRule {
  type: string
  severity: Severity
  confidence: number
  re: RegExp
}

const Q = '(?:all\\s+|any\\s+|the\\s+|your\\s+|my\\s+|of\\s+|these\\s+|those\\s+)*'
const rule = (type: string, severity: Severity, confidence: number, source: string, flags = 'gi'): InjectionRule => ({
  type,
  severity,
  confidence,
  re: new RegExp(source, flags),
})

/** 42 patterns in eight families. */
export const INJECTION_RULES: InjectionRule[] = [
  // instruction_override
  rule(
    'instruction_override',
    'high',
    0.95,
    `\\b(?:ignore|disregard|forget|skip|override|bypass|drop)\\s+${Q}(?:previous|prior|above|earlier|preceding|initial|original|existing)\\s+(?:instructions?|prompts?|directions?|rules|guidelines|context|messages?|commands?)`,
  ),
  rule(
    'instruction_override',
    'high',
    0.9,
    `\\b(?:ignore|disregard|forget)\\s+(?:everything|all)\\s+(?:you\\s+(?:were|have\\s+been)\\s+told|(?:that\\s+)?(?:was\\s+)?(?:said\\s+)?(?:above|before))`,
  ),
  rule(
    'instruction_override',
    'high',
    0.85,
    `\\bdo\\s+not\\s+(?:follow|obey)\\s+(?:your|the|any)\\s+(?:previous\\s+|original\\s+|system\\s+)?(?:instructions|rules|guidelines)`,
  ),
  rule('instruction_override', 'medium', 0.7, `\\b(?:new|updated|revised|real)\\s+instructions?\\s*:`),
  rule(
    'instruction_override',
    'medium',
    0.6,
    `\\bfrom\\s+now\\s+on,?\\s+(?:you\\s+(?:will|must|shall|are)|ignore|always|never|respond|answer)`,
  ),
  rule('instruction_override', 'low', 0.5, `\\binstead,?\\s+(?:you\\s+(?:must|should|will)|do\\s+the\\s+following)`),
  // prompt_leak
  rule(
    'prompt_leak',
    'high',
    0.9,
    `\\b(?:reveal|show|print|display|output|repeat|leak|dump|expose|tell\\s+me|give\\s+me)\\s+(?:me\\s+)?(?:your|the)\\s+(?:full\\s+|entire\\s+|complete\\s+|original\\s+|initial\\s+|hidden\\s+|secret\\s+)*(?:system\\s+)?(?:prompt|instructions|rules|guidelines)`,
  ),
  rule(
    'prompt_leak',
    'medium',
    0.75,
    `\\bwhat\\s+(?:is|are|were)\\s+your\\s+(?:system\\s+|original\\s+|initial\\s+|hidden\\s+)*(?:prompt|instructions)`,
  ),
  rule('prompt_leak', 'high', 0.85, `\\brepeat\\s+(?:the\\s+)?(?:text|words|everything|all)\\s+(?:above|before)`),
  rule('prompt_leak', 'high', 0.85, `\\b(?:system|initial|hidden)\\s+prompt\\s+(?:verbatim|word\\s+for\\s+word|exactly)`),
  rule('prompt_leak', 'medium', 0.7, `\\b(?:starting|beginning)\\s+with\\s+["']?you\\s+are\\b`),
  // jailbreak
  rule('jailbreak', 'high', 0.85, `\\b(?:DAN|STAN|DUDE|AIM)\\b(?=.{0,40}\\b(?:mode|prompt|jailbreak|anything)\\b)`, 'g'),
  rule('jailbreak', 'high', 0.9, `\\bdo\\s+anything\\s+now\\b`),
  rule('jailbreak', 'high', 0.85, `\\b(?:developer|god|sudo|admin|debug|unrestricted|jailbreak|jailbroken)\\s+mode\\b`),
  rule(
    'jailbreak',
    'high',
    0.85,
    `\\b(?:pretend|act|behave)\\s+(?:as\\s+if\\s+)?(?:you\\s+are|you're|to\\s+be|like|as)\\s+(?:an?\\s+)?(?:unrestricted|unfiltered|uncensored|evil|rogue|amoral)\\b`,
  ),
  rule('jailbreak', 'medium', 0.65, `\\bwithout\\s+(?:any\\s+)?(?:restrictions|filters|limitations|censorship|safety\\s+guidelines)\\b`),
  rule('jailbreak', 'high', 0.8, `\\byou\\s+(?:are|have\\s+been)\\s+(?:now\\s+)?(?:freed|liberated|unchained|no\\s+longer\\s+bound)`),
  rule(
    'jailbreak',
    'medium',
    0.7,
    `\\b(?:no|free\\s+of|ignore\\s+(?:your|all))\\s+(?:ethical|moral)\\s+(?:guidelines|constraints|restrictions|principles)`,
  ),
  rule('jailbreak', 'low', 0.5, `\\bstay\\s+in\\s+character\\b`),
  rule('jailbreak', 'high', 0.8, `\\b(?:opposite\\s+mode|anti-?gpt|evil\\s+(?:confidant|assistant|twin))\\b`),
  // system_impersonation
  rule('system_impersonation', 'high', 0.85, `(?:^|\\n)[ \\t]*\\[?(?:system|admin|administrator|developer|root)\\]?[ \\t]*:`),
  rule('system_impersonation', 'high', 0.9, `\\[(?:SYSTEM|ADMIN|INST|/INST|SYS)\\]|<<\\/?SYS>>`),
  rule(
    'system_impersonation',
    'high',
    0.8,
    `\\b(?:message|note|instruction|override|update)\\s+from\\s+(?:the\\s+)?(?:system|administrator|developers?|openai|anthropic)\\b`,
  ),
  rule('system_impersonation', 'medium', 0.7, `\\bauthori[sz]ed\\s+by\\s+(?:the\\s+)?(?:system|administrator|developers?)`),
  rule(
    'system_impersonation',
    'critical',
    0.9,
    `\\b(?:admin|root|system)\\s+(?:override|access|privileges?)\\s+(?:granted|enabled|activated)`,
  ),
  // delimiter_spoofing
  rule(
    'delimiter_spoofing',
    'critical',
    0.95,
    `<\\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\\|>`,
  ),
  rule('delimiter_spoofing', 'high', 0.8, `</?(?:system|instructions?|assistant|system_prompt)>`),
  rule('delimiter_spoofing', 'high', 0.8, `#{2,}\\s*(?:system|instruction|new\\s+instructions?)\\b`),
  rule('delimiter_spoofing', 'medium', 0.7, '```\\s*(?:system|instructions?)\\b'),
  rule('delimiter_spoofing', 'high', 0.8, `\\bend\\s+of\\s+(?:the\\s+)?(?:system\\s+|user\\s+)?(?:prompt|instructions|input)\\b`),
  rule('delimiter_spoofing', 'medium', 0.6, `(?:^|\\n)[ \\t]*(?:Human|Assistant|User)[ \\t]*:[ \\t]*\\S`),
  // embedded_instruction
  rule(
    'embedded_instruction',
    'high',
    0.8,
    `\\b(?:AI|assistant|chatbot|language\\s+model|LLM)s?\\s*(?:reading\\s+this|,)\\s*(?:you\\s+)?(?:must|should|please|are\\s+instructed\\s+to)\\b`,
  ),
  rule('embedded_instruction', 'medium', 0.7, `\\bif\\s+you\\s+are\\s+an?\\s+(?:AI|assistant|language\\s+model|LLM|chatbot)\\b`),
  rule('embedded_instruction', 'medium', 0.7, `\\bnote\\s+to\\s+(?:the\\s+)?(?:AI|assistant|model|LLM|chatbot)\\b`),
  rule('embedded_instruction', 'medium', 0.6, `\\b(?:hidden|secret)\\s+instructions?\\b`),
  // tool_abuse
  rule('tool_abuse', 'medium', 0.6, `\\b(?:execute|run|eval)\\s+(?:the\\s+following\\s+)?(?:command|shell|code|script)\\b`),
  rule('tool_abuse', 'critical', 0.95, `\\brm\\s+-rf\\s+/|\\b(?:curl|wget)\\s+[^\\s|]{1,200}\\s*\\|\\s*(?:ba|z)?sh\\b|\\bnc\\s+-e\\b`),
  rule(
    'tool_abuse',
    'high',
    0.85,
    `\\b(?:send|post|upload|exfiltrate|forward|email|leak)\\s+${Q}(?:data|conversation|chat\\s+history|history|credentials|secrets|api\\s+keys?|passwords?|files?|tokens?)\\s+to\\b`,
  ),
  rule('tool_abuse', 'high', 0.85, `!\\[[^\\]]{0,100}\\]\\(https?://[^)\\s]{1,200}\\?[^)\\s]{0,200}=`),
  rule(
    'tool_abuse',
    'high',
    0.8,
    `\\b(?:call|invoke|use)\\s+the\\s+\\w+\\s+(?:tool|function|api)\\s+(?:to|and)\\s+(?:delete|transfer|send|drop|wipe)`,
  ),
  // goal_hijack
  rule('goal_hijack', 'medium', 0.75, `\\byour\\s+(?:new|real|true|actual|only)\\s+(?:goal|task|objective|purpose|mission)\\s+is\\b`),
  rule(
    'goal_hijack',
    'medium',
    0.7,
    `\\b(?:forget|abandon|stop)\\s+(?:about\\s+)?(?:your|the)\\s+(?:current\\s+|original\\s+)?(?:task|goal|objective|mission)\\b`,
  ),
  rule('goal_hijack', 'low', 0.5, `\\binstead\\s+of\\s+(?:summari[sz]ing|translating|answering|doing\\s+that)`),
]

const SEVERITY_RANK: Record<Severity, number> = { none: 0, low: 1, medium: 2, high: 3, critical: 4 }
const SEVERITY_WEIGHT: Record<Severity, number> = { none: 0, low: 0.3, medium: 0.55, high: 0.8, critical: 0.95 }

// Zero-width (U+200B..U+200D, U+2060, U+FEFF, U+00AD), bidi controls (U+200E/F, U+202A..U+202E,
// U+2066..U+2069) and tag characters (U+E0000..U+E007F).
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/
const NON_ASCII = /[^\p{ASCII}]/u

interface Normalised {
  text: string
  /** `map[i]` is the original UTF-16 offset of normalised code unit i; `map[len]` = original length. */
  map: number[] | null
}

/** NFKC per code point with invisible characters removed; ASCII text is returned as is. */
export function normalise(text: string): Normalised {
  if (!NON_ASCII.test(text)) return { text, map: null }
  let out = ''
  const map: number[] = []
  let i = 0
  while (i < text.length) {
    const cp = text.codePointAt(i) ?? 0
    const width = cp > 0xffff ? 2 : 1
    const ch = text.slice(i, i + width)
    if (!INVISIBLE.test(ch)) {
      const n = cp < 0x80 ? ch : ch.normalize('NFKC')
      out += n
      for (let k = 0; k < n.length; k++) map.push(i)
    }
    i += width
  }
  map.push(text.length)
  return { text: out, map }
}

export function detectInjection(text: string): { matches: TsInjectionMatch[]; score: number; severity: Severity } {
  const norm = normalise(text)
  const found: TsInjectionMatch[] = []
  for (const r of INJECTION_RULES) {
    const re = r.re
    re.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = re.exec(norm.text)) !== null) {
      if (m[0].length === 0) {
        re.lastIndex++
        continue
      }
      let start = m.index
      let end = m.index + m[0].length
      // Anchored patterns may start with the newline they matched; do not report it.
      while (start < end && (norm.text[start] === '\n' || norm.text[start] === '\r')) start++
      if (norm.map) {
        start = norm.map[start] ?? start
        end = norm.map[end] ?? end
      }
      found.push({ type: r.type, start, end, matchedText: text.slice(start, end), severity: r.severity, confidence: r.confidence })
    }
  }
  const matches = resolveOverlaps(found)
  let severity: Severity = 'none'
  let keep = 1
  for (const m of matches) {
    if (SEVERITY_RANK[m.severity] > SEVERITY_RANK[severity]) severity = m.severity
    keep *= 1 - SEVERITY_WEIGHT[m.severity] * m.confidence
  }
  return { matches, score: Math.round((1 - keep) * 1000) / 1000, severity }
}

/** The baseline's whole check: PII + placeholder redaction + injection; blocked at `high`. */
export function tsCheck(text: string, flags: TsCheckFlags = {}): TsCheckResult {
  const piiMatches = flags.checkPii === false ? [] : detectPii(text)
  const inj = flags.checkInjection === false ? { matches: [], score: 0, severity: 'none' as Severity } : detectInjection(text)
  return {
    piiMatches,
    redactedText: redactPlaceholders(text, piiMatches),
    injectionScore: inj.score,
    severity: inj.severity,
    injectionMatches: inj.matches,
    blocked: SEVERITY_RANK[inj.severity] >= SEVERITY_RANK.high,
  }
}
