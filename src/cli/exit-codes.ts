/**
 * How the `ganglion` client commands end (docs/cli.md#exit-codes). A task's outcome has a code of
 * its own, so a script can tell "the task failed" from "the service said no" from "no service".
 */
import type { TaskStatus } from '../stores/task.js'

export const EXIT = {
  /** The task completed, or the command did what it was asked. */
  OK: 0,
  /** The service refused the request: no such task or document, a conflict, a rate limit, a server error. */
  REFUSED: 1,
  /** Bad arguments, or a request the service refused as invalid (VALIDATION_ERROR). */
  USAGE: 2,
  FAILED: 3,
  /** Screened out at submission (prompt injection, a refused goal). */
  REJECTED: 4,
  CANCELLED: 5,
  /** The task's timeout or deadline passed. */
  TIMED_OUT: 6,
  /** No service answered at the URL, or it refused the credential (401, 403). */
  UNREACHABLE: 7,
  /** Interrupted (Ctrl-C) while following a task that keeps running. */
  INTERRUPTED: 130,
} as const

/** The exit code of a task in this status: 0 while it is not final (nothing went wrong yet). */
export function exitCodeOf(status: TaskStatus | string): number {
  switch (status) {
    case 'failed':
      return EXIT.FAILED
    case 'rejected':
      return EXIT.REJECTED
    case 'cancelled':
      return EXIT.CANCELLED
    case 'timed_out':
      return EXIT.TIMED_OUT
    default:
      return EXIT.OK
  }
}

/** The table printed in `ganglion --help`. */
export const EXIT_CODES_HELP = `Exit codes of the client commands (run, tasks, knowledge, keys over HTTP):
  0    the task completed / the command did what it was asked
  1    the service refused the request (not found, conflict, rate limit, server error)
  2    bad arguments, or a request the service refused as invalid
  3    the task failed
  4    the task was rejected (screened out at submission)
  5    the task was cancelled
  6    the task timed out (its timeout or deadline passed)
  7    could not reach the service, or it refused the credential (401/403)
  130  interrupted: stopped following a task that keeps running`
