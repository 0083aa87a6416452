/**
 * Clear intents read from a goal's words, for the planner's deterministic path. Each intent knows
 * where it starts in the goal, so several in one goal keep their order and a free-text part (a
 * search query) ends where the next intent begins. Text after a colon ("run wc -l on: …",
 * "redact the PII from: …") is payload: nothing in it is read as an intent.
 *
 * ```ts
 * readIntents('Fetch https://example.com and search the knowledge base for pricing')
 * // [{ kind: 'fetch', url: 'https://example.com', … }, { kind: 'search', query: 'pricing', summarise: false, … }]
 * ```
 */
import { type LinearExecArray, type LinearPattern, linearPattern } from '../../linear-pattern.js'
import { trimEndOf } from '../../text-scan.js'
import { splitCommandLine } from './command-line.js'
import { type Match, pairedMatches } from './paired-matches.js'

export type Intent =
  | { kind: 'search'; at: number; query: string; summarise: boolean }
  | { kind: 'shell'; at: number; command: string; args: string[]; stdin?: string }
  | { kind: 'code'; at: number; spec: string }
  | { kind: 'evaluate'; at: number; code: string }
  | { kind: 'fetch'; at: number; url: string }
  | { kind: 'scrub'; at: number; text: string }
  | { kind: 'validate'; at: number; criterion: string }

const PII = '(?:personal(?:ly identifiable)? (?:data|information|details)|pii|secrets?|sensitive data)'
// Every pattern here runs on client text in linear time: the long ones on the Rust regex engine
// (linearPattern), the rest proved safe by test/hostile/every-regex-in-src-is-safe.test.ts.
const INTRO = String.raw`(?:\s+(?:this|the following|the|these))?(?:\s+(?:text|input|lines|data|string))?\s*:`
/** "the shell command", "the command", "shell command" before a command line, or nothing. */
const COMMAND_WORDS = String.raw`(?:the\s+)?(?:(?:shell\s+)?command\s+)?`

/** Intents whose payload is everything after a colon, earliest first wins; null: no usable payload. */
const PAYLOAD: Array<{ re: { exec(goal: string): Match | null }; make: (m: Match, payload: string) => Intent | null }> = [
  {
    // "run" not after a word character, '=', '.' or '-': that character is matched, then dropped
    re: startingAtRun(
      linearPattern(
        String.raw`(?:^|[^\w=.-])run\s+${COMMAND_WORDS}(?:\x60([^\x60]+)\x60|([\w.-]+(?:\s+-[\w=-]+)*))\s+(?:on|over|against|with)${INTRO}`,
        'i',
      ),
    ),
    make: (m, payload) => shell(m.index, m[1] ?? m[2]!, lines(payload)),
  },
  {
    // "run this JavaScript and report the result: 6*7", "evaluate this JavaScript: `…`", or a
    // fenced block right after the words
    re: linearPattern(
      String.raw`\b(?:run|evaluate|execute|eval)\s+(?:(?:this|the\s+following|the)\s+)?(?:javascript|js)(?:\s+(?:code|expression|snippet|program))?(?:\s+and\s+(?:report|return|give|print|show|tell)(?:\s+(?:me|us))?\s+(?:the|its)\s+(?:result|output|value|answer))?\s*(:|\x60)`,
      'i',
    ),
    make: (m, payload) => {
      const code = codeIn(m[1] === '`' ? `\`${payload}` : payload)
      return code === '' ? null : { kind: 'evaluate', at: m.index, code }
    },
  },
  {
    re: linearPattern(String.raw`\bcount\s+(?:the\s+)?(?:number\s+of\s+)?(lines|words|characters|chars)\s+(?:of|in)${INTRO}`, 'i'),
    make: (m, payload) => shell(m.index, `wc ${WC_FLAGS[m[1]!.toLowerCase()]}`, lines(payload)),
  },
  {
    re: linearPattern(
      String.raw`\b(?:redact|remove|scrub|strip|mask|hide)\s+(?:all\s+|any\s+)?(?:the\s+)?${PII}\s+(?:in|from)${INTRO}`,
      'i',
    ),
    make: (m, payload) => ({ kind: 'scrub', at: m.index, text: payload.trim() }),
  },
]

const WC_FLAGS: Record<string, string> = { lines: '-l', words: '-w', characters: '-m', chars: '-m' }

/** Intents read from the goal before any payload. */
const INLINE: Array<{ find: (head: string) => Iterable<Match>; make: (m: Match, rest: string) => Intent | null }> = [
  {
    find: all(linearPattern(String.raw`\brun\s+${COMMAND_WORDS}\x60([^\x60]+)\x60`, 'i')),
    make: (m) => shell(m.index, m[1]!),
  },
  {
    find: all(/\bevaluate\s+`([^`]+)`/gi),
    make: (m) => ({ kind: 'evaluate', at: m.index, code: m[1]!.trim() }),
  },
  {
    find: all(
      linearPattern(
        String.raw`\b(?:fetch|download|retrieve|get)\s+(?:the\s+(?:page|url|contents?|text)\s+(?:at|of|from)\s+)?(https?:\/\/[^\s"'<>\x60]+)`,
        'i',
      ),
    ),
    make: (m) => ({ kind: 'fetch', at: m.index, url: trimEndOf(m[1]!, '.,;:!?)]') }),
  },
  {
    find: all(
      linearPattern(
        String.raw`\b(?:search|look\s+up|find|query|check)\s+(?:in\s+|through\s+)?(?:the\s+|our\s+)?(?:knowledge[\s-]?base|kb)\s+(?:for|about|on)\s+`,
        'i',
      ),
    ),
    make: (m, rest) => search(m.index, rest),
  },
  {
    // search for (.+?) in the knowledge base
    find: (head) =>
      pairedMatches(
        head,
        linearPattern(String.raw`\b(?:search\s+(?:for\s+)?|look\s+up\s+|find\s+)`, 'i'),
        linearPattern(String.raw`\s+in\s+(?:the\s+|our\s+)?(?:knowledge[\s-]?base|kb)\b`, 'i'),
        /[\n\r\u2028\u2029]/g,
        1,
      ),
    make: (m, rest) => search(m.index, m[1]!, rest),
  },
  {
    // compute … in javascript | write javascript code that | using javascript, compute
    find: (head) =>
      leftmost([
        pairedMatches(head, /\b(?:compute|calculate|work\s+out)\b/gi, /\bin\s+(?:javascript|js)\b/gi, /[.?!]/g, 0),
        all(
          linearPattern(
            String.raw`\bwrite\s+(?:(?:some|a)\s+)?(?:(?:javascript|js)\s+)?(?:code|program|function|script|snippet)\s+(?:that|to|which)\b`,
            'i',
          ),
        )(head),
        all(linearPattern(String.raw`\b(?:using|with)\s+(?:javascript|js)(?:\s+code)?(?:\s*,)?\s+(?:compute|calculate)\b`, 'i'))(head),
      ]),
    make: (m) => ({ kind: 'code', at: m.index, spec: '' }),
  },
  {
    find: all(linearPattern(String.raw`\b(?:validate|verify|check|confirm)\s+(?:that|whether|if)\s+`, 'i')),
    make: (m, rest) => ({ kind: 'validate', at: m.index, criterion: rest }),
  },
]

/** Reads the goal's intents in order. */
export function readIntents(goal: string): Intent[] {
  let head = goal
  let found: Found[] = []
  let payloadAt = -1
  for (const { re, make } of PAYLOAD) {
    const m = re.exec(goal)
    const intent = m && (payloadAt === -1 || m.index < payloadAt) ? make(m, goal.slice(m.index + m[0]!.length)) : null
    if (m && intent) {
      payloadAt = m.index
      found = [{ intent, from: -1 }]
    }
  }
  if (payloadAt !== -1) head = goal.slice(0, payloadAt)
  for (const { find, make } of INLINE) {
    for (const m of find(head)) {
      const from = m.index + m[0]!.length
      const intent = make(m, head.slice(from))
      // A backticked run already read as a payload intent is the same step.
      if (intent && !found.some((f) => f.intent.at === intent.at))
        found.push({ intent, from: m.length > 1 && intent.kind === 'search' && m[1] ? -1 : from })
    }
  }
  found.sort((a, b) => a.intent.at - b.intent.at)
  const end = payloadAt === -1 ? goal.length : payloadAt
  return found.map((f, i) => finish(f, goal, found[i + 1]?.intent.at ?? end, found.length === 1))
}

interface Found {
  intent: Intent
  /** Where the intent's free text starts in the goal; -1 when it is already bounded. */
  from: number
}

/** Cuts free text where the next intent starts, and at the end of its sentence. */
function finish({ intent, from }: Found, goal: string, next: number, alone: boolean): Intent {
  const clause = (text: string): string => {
    const end = text.search(/[.?!;](?:\s|$)|\n/)
    return withoutTrailingJoins(end === -1 ? text : text.slice(0, end))
  }
  const text = from === -1 ? null : clause(goal.slice(from, Math.max(from, next)))
  if (intent.kind === 'search') {
    const query = beforeSummaryRequest(text ?? intent.query.trim()).trim()
    return { ...intent, query: query || intent.query.trim() }
  }
  if (intent.kind === 'validate') return { ...intent, criterion: text ?? intent.criterion }
  // Alone, the whole goal is the best spec; among others, only its own clause.
  if (intent.kind === 'code') return { ...intent, spec: alone ? goal.trim() : clause(goal.slice(intent.at, next)) || goal.trim() }
  return intent
}

/** Every match of a global regex or a linear pattern. */
function all(re: RegExp | LinearPattern): (text: string) => Match[] {
  return (text) => (re instanceof RegExp ? [...text.matchAll(re)] : re.execAll(text))
}

/** A match of `pattern` without the one character it reads before "run". */
function startingAtRun(pattern: LinearPattern): { exec(goal: string): LinearExecArray | null } {
  return {
    exec: (goal) => {
      const m = pattern.exec(goal)
      if (m === null || m[0]!.slice(0, 3).toLowerCase() === 'run') return m
      const skip = String.fromCodePoint(m[0]!.codePointAt(0)!).length
      return Object.assign([m[0]!.slice(skip), ...m.slice(1)], { index: m.index + skip })
    },
  }
}

/** The matches of several patterns as one global alternation reads them: leftmost first, none overlapping. */
function leftmost(lists: Match[][]): Match[] {
  const sorted = lists.flatMap((list, order) => list.map((m) => ({ m, order }))).sort((a, b) => a.m.index - b.m.index || a.order - b.order)
  const out: Match[] = []
  let after = 0
  for (const { m } of sorted) {
    if (m.index < after) continue
    out.push(m)
    after = m.index + m[0]!.length
  }
  return out
}

/** The text without the commas, "and", "then" and "also" that end it, and trimmed. */
function withoutTrailingJoins(text: string): string {
  let out = text.trim()
  for (let m = JOIN_AT_END.exec(out); m; m = JOIN_AT_END.exec(out)) out = out.slice(0, m.index).trimEnd()
  return out
}
const JOIN_AT_END = /(?:,|\b(?:and|then|also))$/i

/** The text before a request for a summary ("…, and summarise"), or all of it. */
function beforeSummaryRequest(text: string): string {
  const request = SUMMARY_REQUEST.exec(text)
  if (!request) return text
  // the "and"/"then" that joins the request to the query goes with it, with the comma before it
  const head = text.slice(0, request.index)
  const bare = head.trimEnd()
  if (bare === head) return head
  const join = /(?:and|then)$/i.exec(bare)
  if (!join) return head
  const before = bare.slice(0, join.index).trimEnd()
  return before.endsWith(',') ? before.slice(0, -1) : before
}
const SUMMARY_REQUEST = linearPattern(String.raw`(?:summari[sz]e|give\s+(?:me\s+)?a\s+summary|write\s+a\s+summary)\b`, 'i')

function search(at: number, query: string, after = ''): Intent {
  const summarise = /\bsummar(?:i[sz]e|y)\b/i.test(query + after)
  return { kind: 'search', at, query, summarise }
}

function shell(at: number, line: string, stdin?: string): Intent {
  const [command = '', ...args] = splitCommandLine(line.trim())
  return { kind: 'shell', at, command, args, ...(stdin !== undefined && { stdin }) }
}

/** The text after the colon, as a command reads it: without the leading blank, ending in a newline. */
function lines(payload: string): string {
  const line = payload.replace(/^[ \t]*\n?/, '')
  // leading white space goes only when text follows it
  const text = line.trimStart() === '' ? line : line.trimStart()
  return text.endsWith('\n') ? text : `${text}\n`
}

/**
 * The code of a payload: the inside of its first fenced block (the language tag dropped), else the
 * text without the backticks around it, else the text itself.
 */
function codeIn(payload: string): string {
  const fence = payload.indexOf('```')
  if (fence !== -1) {
    const close = payload.indexOf('```', fence + 3)
    const inside = payload.slice(fence + 3, close === -1 ? payload.length : close)
    const newline = inside.indexOf('\n')
    // the first line is a language tag (or nothing) when code follows it
    const tag = newline === -1 ? null : inside.slice(0, newline).trim()
    return (tag !== null && /^(?:javascript|js|mjs)?$/i.test(tag) ? inside.slice(newline + 1) : inside).trim()
  }
  const code = payload.trim()
  return code.length > 1 && code.startsWith('`') && code.endsWith('`') ? code.slice(1, -1).trim() : code
}
