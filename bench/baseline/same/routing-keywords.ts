/**
 * The keyword table of the routing scan (crates/reflex-core/src/routing/keywords.rs), as a
 * plain `Map` where Rust has a perfect-hash table behind a prefix filter.
 *
 * ```ts
 * classify('SEARCH') // 'retriever'
 * classify('the')    // 'article'
 * classify('naïve')  // 'other'
 * ```
 */

/** What a word signals; `other` for every word the scan does not care about. */
export type Word =
  | 'retriever' | 'executor' | 'coder' | 'judge' | 'guardian'
  /** "then", "finally", …: the request is a sequence of steps. */
  | 'sequence'
  // Halves of two-word phrases.
  | 'look' | 'up' | 'fix' | 'bug' | 'article' | 'personal' | 'data' | 'after' | 'that'
  | 'other'

const BY_SIGNAL: ReadonlyArray<[Word, string[]]> = [
  ['retriever', ['search', 'searches', 'searching', 'find', 'finds', 'finding', 'lookup', 'knowledge', 'retrieve', 'research']],
  ['executor', [
    'run', 'runs', 'running', 'execute', 'executes', 'executing', 'execution', 'shell', 'command', 'commands',
    'compute', 'computing', 'calculate', 'calculates', 'calculating', 'calculation', 'bash',
  ]],
  ['coder', [
    'code', 'coding', 'function', 'functions', 'script', 'scripts', 'implement', 'implements', 'implementing',
    'implementation', 'refactor', 'debug', 'bugfix',
  ]],
  ['judge', [
    'validate', 'validates', 'validating', 'validation', 'check', 'checks', 'checking', 'verify', 'verifies',
    'verifying', 'verification', 'test', 'tests', 'testing',
  ]],
  ['guardian', [
    'redact', 'redacts', 'redacting', 'redaction', 'pii', 'sanitize', 'sanitise', 'sanitizing', 'sanitising',
    'anonymize', 'anonymise',
  ]],
  ['sequence', ['then', 'afterwards', 'afterward', 'finally', 'subsequently', 'lastly']],
  ['look', ['look', 'looks', 'looking']],
  ['up', ['up']],
  ['fix', ['fix', 'fixes', 'fixing']],
  ['bug', ['bug', 'bugs']],
  ['article', ['the', 'a', 'this', 'my']],
  ['personal', ['personal']],
  ['data', ['data', 'details', 'information', 'info']],
  ['after', ['after']],
  ['that', ['that']],
]

/** Every keyword (lower case), to what it signals. */
export const KEYWORDS: ReadonlyMap<string, Word> = new Map(
  BY_SIGNAL.flatMap(([signal, words]) => words.map((w): [string, Word] => [w, signal])),
)
