/**
 * The pino logger every component uses.
 *
 * ```ts
 * const logger = createLogger({ name: 'reflex', level: config.logLevel, redact: engine.redactText })
 * ```
 *
 * `level` takes the spec's LOG_LEVEL names (DEBUG, INFO, WARNING, ERROR; WARNING is pino's `warn`).
 * `redact` is the hook for the reflex layer's PII scrubber: when given, every log line is passed
 * through it as text just before it is written, so personal data in messages, error messages or
 * logged fields never reaches the log sink. It must be synchronous and keep the line valid JSON
 * (replace matched text inside strings; do not add quotes or newlines).
 */
import pino, { type DestinationStream, type Logger } from 'pino'

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR'

export type Redactor = (line: string) => string

export interface LoggerOptions {
  name: string
  /** Default INFO. */
  level?: LogLevel
  redact?: Redactor
  /** Default stdout. */
  destination?: DestinationStream
}

const PINO_LEVEL: Record<LogLevel, pino.Level> = { DEBUG: 'debug', INFO: 'info', WARNING: 'warn', ERROR: 'error' }

export function pinoLevel(level: LogLevel): pino.Level {
  return PINO_LEVEL[level]
}

export function createLogger(opts: LoggerOptions): Logger {
  const destination = opts.destination ?? pino.destination({ dest: 1, sync: false })
  const redact = opts.redact
  const sink: DestinationStream =
    redact === undefined ? destination : { write: (line: string) => void destination.write(redact(line)) }
  return pino({ name: opts.name, level: pinoLevel(opts.level ?? 'INFO') }, sink)
}

export type { Logger }
