/**
 * The step error catalogue: every code a task record's errors carry (`plan.steps[].error.code`,
 * the task's `error.code`), declared once with whether trying again can help and what it means.
 * The arms, the arm clients, the model providers and the task runner raise these codes and no
 * others; docs/errors.md is the same table for readers.
 *
 * ```ts
 * throw new ArmError('COMMAND_NOT_ALLOWED', "command 'curl' is not on the allow-list") // not retryable: the catalogue says
 * throw new StepError('ARM_UNREACHABLE', 'connection refused')                       // retryable: the catalogue says
 * throw new LlmError('LLM_BAD_OUTPUT', 'reply is not JSON', true)                    // "varies": the thrower says
 * ```
 *
 * A code whose `retryable` is `'varies'` depends on the cause, so whoever raises it passes the
 * flag; for the others the flag may be left out. An external arm may report codes of its own:
 * those pass through as reported (`StepError.reported`) and are not in the catalogue.
 */

interface Entry {
  /** Whether the same step can succeed if run again; `'varies'`: it depends on the cause. */
  retryable: boolean | 'varies'
  /** One line for the docs. */
  meaning: string
}

export const STEP_ERRORS = {
  // Any arm, and the host that runs it (src/arms/arm-host.ts)
  INPUT_INVALID: {
    retryable: false,
    meaning: "the step's input is missing or breaks the tool's input schema; the message names the field",
  },
  TOOL_UNKNOWN: { retryable: false, meaning: 'the arm has no such tool' },
  STEP_TIMEOUT: { retryable: true, meaning: 'one attempt of the step ran past its time limit' },
  STEP_ABORTED: { retryable: true, meaning: 'the call to the arm was aborted before it answered' },
  ARM_BAD_OUTPUT: { retryable: false, meaning: 'the arm returned output or an event that JSON cannot carry' },
  ARM_ERROR: { retryable: true, meaning: 'the arm failed with an error that has no code (its message only)' },

  // Reaching an arm (src/arms/arm-client.ts, src/arms/in-process-endpoint.ts)
  ARM_BAD_REQUEST: { retryable: false, meaning: 'the arm refused the request as malformed (400 or another 4xx)' },
  ARM_BAD_RESPONSE: { retryable: true, meaning: 'the arm answered 200 with something that is not an ExecuteResponse' },
  ARM_REPLY_TOO_LARGE: { retryable: false, meaning: "the arm's reply was longer than the client reads (32 MiB)" },
  ARM_UNREACHABLE: {
    retryable: true,
    meaning: "the arm could not be reached, answered 408, 429 or 5xx, or could not fetch the orchestrator's keys",
  },
  TOKEN_MISSING: { retryable: false, meaning: 'the arm got no capability token' },
  TOKEN_INVALID: {
    retryable: false,
    meaning: 'the capability token is malformed, badly signed, from an unknown key or issuer, or has no scope',
  },
  TOKEN_EXPIRED: { retryable: false, meaning: 'the capability token had expired' },
  TOKEN_WRONG_AUDIENCE: { retryable: false, meaning: 'the capability token is for another arm' },
  TOKEN_WRONG_SUBJECT: { retryable: false, meaning: 'the capability token is for another task or step' },
  TOKEN_OUT_OF_SCOPE: { retryable: false, meaning: "the step's tool is not in the capability token's scope" },
  UNAUTHORIZED: { retryable: false, meaning: 'an external arm answered 401 without naming a token reason' },
  FORBIDDEN: { retryable: false, meaning: 'an external arm answered 403 without naming a token reason' },

  // The task runner (src/orchestrator/runner)
  ARM_UNKNOWN: { retryable: false, meaning: 'the step names an arm that is not registered' },
  STEP_INVALID: { retryable: false, meaning: 'the step names no tool and its arm has no default tool' },
  STEP_ERROR: { retryable: true, meaning: 'the step runner failed with an error that has no code' },
  STEP_FAILED: { retryable: false, meaning: 'a step failed without recording an error' },
  LEASE_LOST: { retryable: true, meaning: 'the worker lost the job lease while the step ran; the step runs again' },
  CANCELLED: { retryable: false, meaning: 'the task was cancelled while the step ran' },
  TIMEOUT: { retryable: 'varies', meaning: 'the task ran past its time limit: retryable on the task, not on the steps it cut off' },
  PLAN_INVALID: {
    retryable: false,
    meaning: "the plan breaks the orchestrator's rules (arms, ids, dependencies, size); the task fails PLAN_FAILED",
  },
  PLAN_FAILED: {
    retryable: 'varies',
    meaning:
      "planning failed for good, with the planner's message (a model failure keeps its LLM_ code); retryable when its last error was",
  },
  REJECTED: { retryable: false, meaning: 'the reflex layer refused the goal; the message says why' },

  // The planner arm
  PLAN_NOT_POSSIBLE: { retryable: false, meaning: 'no allowed arm can do the goal' },
  MODEL_REQUIRED: {
    retryable: false,
    meaning: 'no offline rule recognises the goal: planning it needs a language model (LLM_PROVIDER); the task fails with this code',
  },

  // The retriever arm
  NO_KNOWLEDGE_MATCH: {
    retryable: false,
    meaning: 'a question answered from the knowledge base found no matching passage, so there is no answer',
  },

  // The executor arm
  COMMAND_NOT_ALLOWED: { retryable: false, meaning: 'the command is not on the allow-list, not installed, or would start another program' },
  COMMAND_FAILED: { retryable: false, meaning: 'the command exited non-zero or was killed by a signal' },
  COMMAND_TIMEOUT: {
    retryable: false,
    meaning: 'the command ran past its time limit and was killed, or no sandbox came free within it',
  },
  SANDBOX_UNAVAILABLE: { retryable: false, meaning: 'the shell sandbox (bubblewrap) is missing or does not work here' },
  SCRIPT_ERROR: { retryable: false, meaning: 'the JavaScript threw, did not parse or returned a cycle, or its sandbox stopped' },
  SCRIPT_TIMEOUT: { retryable: false, meaning: 'the JavaScript ran past its time limit' },
  SCRIPT_OUT_OF_MEMORY: { retryable: false, meaning: 'the JavaScript needed more memory than its limit' },
  SCRIPT_RESULT_TOO_LARGE: { retryable: false, meaning: "the JavaScript's result is larger than the limit" },
  HOST_NOT_ALLOWED: { retryable: false, meaning: 'the host is not on the fetch allow-list, or no host is' },
  ADDRESS_NOT_ALLOWED: { retryable: false, meaning: 'the host resolves to an address that is not public' },
  TOO_MANY_REDIRECTS: { retryable: false, meaning: 'the fetch was redirected more times than allowed' },
  FETCH_FAILED: { retryable: true, meaning: 'the fetch failed: DNS, connection or transfer' },
  FETCH_TIMEOUT: { retryable: true, meaning: 'the fetch, all hops together, ran past its time limit' },

  // The coder arm
  CODER_NEEDS_MODEL: { retryable: false, meaning: 'without a model: no built-in template fits the spec, or a repair was asked for' },
  LANGUAGE_UNSUPPORTED: { retryable: false, meaning: 'without a model the coder writes JavaScript only' },

  // The judge arm
  VALIDATION_FAILED: { retryable: false, meaning: 'the output failed an acceptance check; the task is re-planned once' },

  // The judge and guardian arms
  CHECK_BUDGET_EXCEEDED: {
    retryable: false,
    meaning: 'the checks of one guardian or judge call ran past their time budget (CHECK_BUDGET_MS); the output was not passed on',
  },

  // The model (src/llm), through any arm that calls one
  LLM_BUDGET_EXCEEDED: { retryable: false, meaning: "the call would spend more tokens than the task's budget has left" },
  LLM_UNAVAILABLE: { retryable: true, meaning: 'the model could not be reached, timed out, answered 429 or 5xx, or cut its reply short' },
  LLM_BAD_REQUEST: { retryable: false, meaning: 'the model refused the request (4xx) or it was malformed before sending' },
  LLM_BAD_OUTPUT: {
    retryable: 'varies',
    meaning: 'the reply does not fit the schema (retryable), or the model refused or sent misshapen embeddings (not)',
  },
  LLM_ABORTED: { retryable: false, meaning: 'the model request was aborted' },
  LLM_NOT_CONFIGURED: { retryable: false, meaning: 'the model provider is not configured or cannot be loaded' },
  LLM_UNSUPPORTED: { retryable: false, meaning: 'the provider cannot do this (structured output offline, embeddings)' },
} as const satisfies Record<string, Entry>

export type StepCode = keyof typeof STEP_ERRORS

/** Codes whose flag the catalogue fixes: they may be raised without one. */
export type FixedCode = { [C in StepCode]: (typeof STEP_ERRORS)[C]['retryable'] extends boolean ? C : never }[StepCode]

/** The model's codes (LlmError). */
export type LlmCode = Extract<StepCode, `LLM_${string}`>

/** Why a capability token was refused. */
export type TokenRefusal = Extract<StepCode, `TOKEN_${string}`>

/** The error object of a step or task record. */
export interface StepFailure {
  code: string
  message: string
  retryable: boolean
}

/** The catalogue's flag for `code`; `false` for a code whose flag varies (its raisers always pass one). */
export function retryableOf(code: StepCode): boolean {
  return STEP_ERRORS[code].retryable === true
}

/** A record's error object for a catalogue code. */
export function stepFailure(code: FixedCode, message: string): StepFailure
export function stepFailure(code: StepCode, message: string, retryable: boolean): StepFailure
export function stepFailure(code: StepCode, message: string, retryable = retryableOf(code)): StepFailure {
  return { code, message, retryable }
}

/**
 * A step failure with a stable code, as the task runner sees it: thrown by step runners, the
 * planner and the arm clients. `retryable: false` fails the step (and the task) at once.
 */
export class StepError extends Error {
  readonly code: string
  readonly retryable: boolean

  constructor(code: FixedCode, message: string)
  constructor(code: StepCode, message: string, retryable: boolean)
  constructor(code: StepCode, message: string, retryable = retryableOf(code)) {
    super(message)
    this.name = 'StepError'
    this.code = code
    this.retryable = retryable
  }

  /** A failure as an arm reported it: an external arm may use codes of its own. */
  static reported(failure: StepFailure): StepError {
    return Object.assign(new StepError('ARM_ERROR', failure.message, failure.retryable), { code: failure.code })
  }
}
