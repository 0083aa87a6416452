/**
 * Acceptance criteria in words, turned into deterministic checks when the wording leaves no doubt.
 * Anything else returns undefined and goes to the model (or is reported unverified offline).
 *
 * ```ts
 * translateCriterion('The output contains 6765')   // { type: 'contains', value: '6765', ignore_case: true, … }
 * translateCriterion('exit code is 0')              // { type: 'exit_code', equals: 0, … }
 * translateCriterion('The summary is accurate')     // undefined: a judgement, not a check
 * ```
 *
 * Values: a quoted value ("…", '…', `…`, “…”) is taken exactly; an unquoted one must be short (at
 * most three words), must not be a count ("3 items"), must not start with an article or
 * quantifier ("a summary", "the date" name a kind of thing, not literal text) and must not join
 * alternatives with and/or. `equals` through "is"/"should be" takes only numbers, quoted strings,
 * true, false and null, so "the result is correct" stays a judgement; after "equals" one short
 * unquoted token is taken too.
 */
import { type LinearExecArray, linearPattern } from '../../linear-pattern.js'
import { trimEndOf } from '../../text-scan.js'
import type { Check } from './checks.js'

// The long patterns run on the Rust regex engine (linearPattern): linear in the criterion's length
// whatever its wording, where a backtracking engine's time would rest on the patterns' shape.
const SUBJECT = String.raw`(?:(?:the|its|their)\s+)?(?:final\s+)?(?:(?:output|result|answer|response|reply|value|text|stdout|summary|code)\s+)?`
const MODAL = String.raw`(?:(?:should|must|shall|will|has\s+to|needs?\s+to)\s+)?`
const NUMBER = String.raw`-?\d+(?:\.\d+)?`
const WHOLE_NUMBER = new RegExp(`^${NUMBER}$`, 'u')

const NOT_CONTAINS = linearPattern(
  String.raw`^${SUBJECT}(?:does\s+not|doesn't|do\s+not|must\s+not|should\s+not|shall\s+not|may\s+not|never|cannot|can't)\s+(?:contain|include|mention|say|have)s?\s+(\S.*)$|^(?:no\s+mention\s+of|without)\s+(\S.*)$`,
  'iu',
)
const CONTAINS = linearPattern(
  String.raw`^${SUBJECT}${MODAL}(?:contains?|includes?|mentions?|says?|has|have)\s+(?:the\s+(?:text|string|word|number|phrase)\s+)?(\S.*)$`,
  'iu',
)
const EQUALS_WORD = linearPattern(String.raw`^${SUBJECT}${MODAL}(?:equals?|==|=|is\s+equal\s+to)\s+(\S.*)$`, 'iu')
const EQUALS_IS = linearPattern(
  String.raw`^${SUBJECT}(?:is|should\s+be|must\s+be|will\s+be|evaluates\s+to|returns|prints|outputs)\s+(?:exactly\s+)?(\S.*)$`,
  'iu',
)
const EXIT_CODE = linearPattern(
  String.raw`^(?:the\s+)?(?:command\s+|process\s+|script\s+)?(?:exit\s+(?:code|status)(?:\s+(?:is|of|equals?|==|=|should\s+be|must\s+be))?\s*|exits?\s+with\s+(?:code\s+|status\s+)?)(${NUMBER})$`,
  'iu',
)
const EXIT_OK = /^(?:the\s+)?(?:command|process|script|program)\s+(?:exits\s+successfully|succeeds|runs\s+successfully|exits\s+cleanly)$/iu
const VALID_JSON = linearPattern(
  String.raw`^${SUBJECT}(?:is|should\s+be|must\s+be|returns|outputs|prints|produces)\s+(?:a\s+)?(?:valid|parseable|well-formed)\s+json(?:\s+(?:text|document|object|output))?$|^${SUBJECT}(?:is|should\s+be|must\s+be)\s+json$`,
  'iu',
)
const MATCHES = linearPattern(
  String.raw`^${SUBJECT}${MODAL}match(?:es)?\s+(?:the\s+(?:pattern|regex|regular\s+expression)\s+)?/(.+)/([a-z]*)$`,
  'iu',
)
const MAX_LENGTH = linearPattern(
  String.raw`^${SUBJECT}(?:is\s+|should\s+be\s+|must\s+be\s+|has\s+|contains\s+)?(at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|maximum(?:\s+of)?|max\.?|under|fewer\s+than|less\s+than|shorter\s+than)\s+(\d+)\s+(characters?|chars?|letters|words?)(?:\s+long)?$`,
  'iu',
)
const MIN_LENGTH = linearPattern(
  String.raw`^${SUBJECT}(?:is\s+|should\s+be\s+|must\s+be\s+|has\s+|contains\s+)?(at\s+least|no\s+fewer\s+than|no\s+less\s+than|minimum(?:\s+of)?|min\.?|more\s+than|over|longer\s+than)\s+(\d+)\s+(characters?|chars?|letters|words?)(?:\s+long)?$`,
  'iu',
)
const NON_EMPTY = linearPattern(String.raw`^${SUBJECT}(?:is|should\s+be|must\s+be)\s+(?:non-?\s?empty|not\s+empty)$`, 'iu')

const DETERMINERS = linearPattern(
  String.raw`^(?:a|an|the|some|any|all|each|every|no|at\s+least|one\s+or\s+more|its|their|his|her|valid|correct|proper|appropriate)\b`,
  'iu',
)
const QUOTED = /^(["'`“‘])(.*)(["'`”’])$/su

export function translateCriterion(criterion: string): Check | undefined {
  const text = trimEndOf(criterion.trim(), '.!;').trim()
  if (text === '') return undefined
  const label = { criterion }
  let m: LinearExecArray | null

  if ((m = EXIT_CODE.exec(text))) return { type: 'exit_code', equals: Number(m[1]), ...label }
  if (EXIT_OK.test(text)) return { type: 'exit_code', equals: 0, ...label }
  if (VALID_JSON.test(text)) return { type: 'valid_json', ...label }
  if (NON_EMPTY.test(text)) return { type: 'min_length', value: 1, ...label }
  if ((m = MATCHES.exec(text))) {
    const flags = [...new Set(m[2]!.toLowerCase())].filter((f) => 'imsu'.includes(f)).join('')
    return { type: 'regex', pattern: m[1]!, flags, ...label }
  }
  if ((m = MAX_LENGTH.exec(text))) {
    const strict = /^(?:under|fewer|less|shorter)/iu.test(m[1]!)
    const words = /^word/iu.test(m[3]!)
    return { type: 'max_length', value: Number(m[2]) - (strict ? 1 : 0), unit: words ? 'words' : 'chars', ...label }
  }
  if ((m = MIN_LENGTH.exec(text))) {
    const strict = /^(?:more|over|longer)/iu.test(m[1]!)
    const words = /^word/iu.test(m[3]!)
    return { type: 'min_length', value: Number(m[2]) + (strict ? 1 : 0), unit: words ? 'words' : 'chars', ...label }
  }
  if ((m = NOT_CONTAINS.exec(text))) {
    const value = literal(m[1] ?? m[2]!)
    return value === undefined ? undefined : { type: 'not_contains', value, ignore_case: true, ...label }
  }
  if ((m = CONTAINS.exec(text))) {
    const value = literal(m[1]!)
    return value === undefined ? undefined : { type: 'contains', value, ignore_case: true, ...label }
  }
  if ((m = EQUALS_WORD.exec(text))) {
    const value = scalar(m[1]!, true)
    return value === undefined ? undefined : { type: 'equals', value: value.value, ...label }
  }
  if ((m = EQUALS_IS.exec(text))) {
    const value = scalar(m[1]!, false)
    return value === undefined ? undefined : { type: 'equals', value: value.value, ...label }
  }
  return undefined
}

/** The literal text a contains-criterion names, or undefined when it names a kind of thing. */
function literal(raw: string): string | undefined {
  const value = raw.trim()
  const quoted = QUOTED.exec(value)
  if (quoted) return quoted[2] === '' ? undefined : quoted[2]
  if (WHOLE_NUMBER.test(value)) return value
  const words = value.split(/\s+/u)
  // "has 3 items" counts things; it does not quote text
  const counted = words.length > 1 && /^\d/u.test(words[0]!)
  if (words.length > 3 || counted || DETERMINERS.test(value) || /\b(?:and|or|either|both)\b/iu.test(value)) return undefined
  return value
}

/** A number, quoted string, true/false/null; with `loose`, also one short unquoted token. */
function scalar(raw: string, loose: boolean): { value: unknown } | undefined {
  const value = raw.trim()
  if (WHOLE_NUMBER.test(value)) return { value: Number(value) }
  const quoted = QUOTED.exec(value)
  if (quoted) return { value: quoted[2] }
  if (/^(?:true|false|null)$/iu.test(value)) return { value: JSON.parse(value.toLowerCase()) }
  if (loose && /^[^\s]{1,64}$/u.test(value) && !DETERMINERS.test(value)) return { value }
  return undefined
}
