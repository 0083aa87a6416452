/**
 * The pino logger every component uses.
 *
 * ```ts
 * const logger = createLogger({ name: 'reflex', level: config.logLevel, redactor: {
 *   redact: (line) => detector.redact(line).redacted_text,
 *   find: piiIn(detector), // ./cut-clear-of-pii.ts
 * } })
 * ```
 *
 * `level` takes the LOG_LEVEL names (DEBUG, INFO, WARNING, ERROR; WARNING is pino's `warn`).
 * `redactor` is the hook for the reflex layer's PII scrubber: when given, every log line is passed
 * through its `redact` as text just before it is written, so personal data in messages, error
 * messages or logged fields never reaches the log sink. It must be synchronous and keep the line
 * valid JSON (replace matched text inside strings; do not add quotes or newlines).
 *
 * Every line is bounded first, with or without a redactor (./log-bound.ts): a line longer than
 * MAX_LINE_CHARS has its strings cut to MAX_FIELD_CHARS each, with a marker saying how much was
 * cut, at points the redactor's `find` sees no personal data across, so the redactor then scans
 * a short line and still recognises every item kept; a line its placeholders made longer than the
 * bound is cut again. A line within the bound is written as it is.
 *
 * A line written while a request is handled, or a job of the task it submitted runs, carries the
 * request's id as `request_id` (telemetry/request-scope.ts).
 */
import pino, { type DestinationStream, type Logger } from 'pino'
import type { PiiFinder } from './cut-clear-of-pii.js'
import { boundLine } from './log-bound.js'
import { currentRequestId } from './telemetry/request-scope.js'

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR'

export interface LogRedactor {
  /** The line with personal data replaced, still valid JSON. */
  redact: (line: string) => string
  /** Where personal data lies in a text, so a cut goes around it. */
  find: PiiFinder
}

export interface LoggerOptions {
  name: string
  /** Default INFO. */
  level?: LogLevel
  redactor?: LogRedactor
  /** Default stdout. */
  destination?: DestinationStream
}

const PINO_LEVEL: Record<LogLevel, pino.Level> = { DEBUG: 'debug', INFO: 'info', WARNING: 'warn', ERROR: 'error' }

export function pinoLevel(level: LogLevel): pino.Level {
  return PINO_LEVEL[level]
}

export function createLogger(opts: LoggerOptions): Logger {
  const destination = opts.destination ?? pino.destination({ dest: 1, sync: false })
  const redactor = opts.redactor
  // pino's hook on the finished line: it sees `msg`, bindings and what serializers made of `err`,
  // which `formatters.log` (called before serializers, without `msg`) would not.
  const streamWrite =
    redactor === undefined
      ? (line: string) => boundLine(line)
      : // Placeholders can be longer than what they replace (`a@b.io` → `[EMAIL_1]`): a line the
        // redactor took past the bound is cut again, with no finder, as it holds placeholders now.
        (line: string) => boundLine(redactor.redact(boundLine(line, redactor.find)))
  return pino({ name: opts.name, level: pinoLevel(opts.level ?? 'INFO'), hooks: { streamWrite }, mixin: requestIdField }, destination)
}

/**
 * Every line written while a request (or a job of the task it submitted) is in progress names it.
 * A new object each time: pino merges the line's own fields into what the mixin returns.
 */
function requestIdField(): object {
  const id = currentRequestId()
  return id === undefined ? {} : { request_id: id }
}

export type { Logger }
