/**
 * Runs one arm behind its contract (contract.ts): the same object serves the in-process endpoint
 * and the arm's HTTP routes, so a token is checked and provenance is built the same way either way.
 *
 * ```ts
 * const host = new ArmHost(arm, { verifier: issuer.localVerifier(), llm, endpoint: 'in-process', version })
 * const response = await host.execute(body, token, signal)
 * // { status: 'completed', output, events, provenance: { arm, tool, started_at, …, token_id } }
 * ```
 *
 * In order: the token is authenticated (signed, unexpired, for this arm: CapabilityError,
 * capability-verifier.ts; 401/403 over HTTP) before anything of the body is read, so a caller
 * without one learns nothing of what a body should hold; then the body is validated (400
 * VALIDATION_ERROR naming the field), the token's task, step and scope matched to it (403), and
 * the tool checked against the arm's capabilities (400 VALIDATION_ERROR on `tool`). The arm's
 * HTTP route authenticates in the HTTP layer, before the body is parsed, and calls `run`.
 * Those are thrown; everything after is a response. The arm runs with a signal that aborts on the
 * caller's signal or after `timeout_ms`; the host stops waiting then even if the arm does not.
 *
 * Failures: timeout → STEP_TIMEOUT (retryable), caller abort → STEP_ABORTED (retryable), ArmError
 * and LlmError keep their code and retryability, output that is not JSON → ARM_BAD_OUTPUT, any
 * other throw → ARM_ERROR (retryable, its message only, never a stack).
 */
import { Compile } from 'typebox/compile'
import { type CapabilityVerifier, grants, type VerifiedCapability } from '../auth/capability-verifier.js'
import { HttpError } from '../http/errors.js'
import { compileSchema } from '../http/validate.js'
import { BudgetedLlm } from '../llm/budgeted-llm.js'
import { type Llm, LlmError } from '../llm/provider.js'
import { type StepFailure, stepFailure } from '../step-errors.js'
import {
  type Arm,
  type ArmCapability,
  type ArmContext,
  ArmError,
  ArmEvent,
  type ArmHealth,
  ExecuteRequest,
  type ExecuteResponse,
  type Provenance,
} from './contract.js'
import { untilAborted } from './until-aborted.js'

export interface ArmHostDeps {
  verifier: CapabilityVerifier
  /** The model; each call gets it wrapped in a BudgetedLlm held to the request's allowance. */
  llm: Llm
  /** `in-process` or the URL the arm is served at; fills ArmCapability.endpoint. */
  endpoint: string
  version: string
}

const parseRequest = compileSchema(ExecuteRequest)
const isEvent = Compile(ArmEvent)
const MAX_MESSAGE = 2000

export class ArmHost {
  private readonly tools: ReadonlySet<string>

  constructor(
    readonly arm: Arm,
    private readonly deps: ArmHostDeps,
  ) {
    this.tools = new Set(arm.capability.capabilities)
  }

  get name(): string {
    return this.arm.name
  }

  capability(): ArmCapability {
    return { ...this.arm.capability, endpoint: this.deps.endpoint }
  }

  /** Never throws: an arm whose check fails is `unhealthy`, with the reason in `checks.error`. */
  async health(): Promise<ArmHealth> {
    const base = { arm: this.arm.name, version: this.deps.version }
    if (this.arm.health === undefined) return { status: 'healthy', ...base, checks: {} }
    try {
      const { status, checks } = await this.arm.health()
      return { status, ...base, checks }
    } catch (err) {
      return { status: 'unhealthy', ...base, checks: { error: messageOf(err) } }
    }
  }

  /** Who is calling: the token checked for this arm (CapabilityError if not), before the body is read. */
  authenticate(token: string | undefined): Promise<VerifiedCapability> {
    return this.deps.verifier.authenticate(token, this.arm.name)
  }

  /** `authenticate`, then `run`. */
  async execute(body: unknown, token: string | undefined, signal: AbortSignal): Promise<ExecuteResponse> {
    return this.run(body, await this.authenticate(token), signal)
  }

  /** Runs `body` for a caller `authenticate` has let in. */
  async run(body: unknown, caller: VerifiedCapability, signal: AbortSignal): Promise<ExecuteResponse> {
    const request = parseRequest(body)
    const claims = grants(caller, { arm: this.arm.name, tool: request.tool, taskId: request.task_id, stepId: request.step_id })
    if (!this.tools.has(request.tool))
      throw HttpError.validation('tool', `must be one of ${[...this.tools].join(', ')}`, `Arm ${this.arm.name} has no tool ${request.tool}`)

    const llm = new BudgetedLlm(this.deps.llm, request.budget.max_tokens)
    const events: ArmEvent[] = []
    let open = true
    const started = performance.now()
    const startedAt = new Date().toISOString()
    const stop = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      stop.abort(new ArmError('STEP_TIMEOUT', `the step ran past ${request.timeout_ms} ms`))
    }, request.timeout_ms)
    const onAbort = () => stop.abort(signal.reason)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })

    const ctx: ArmContext = {
      signal: stop.signal,
      claims,
      llm,
      emit: (event) => {
        if (!open) return // the host has stopped waiting; the step's log is already written
        const copy = jsonCopy(event)
        if (!isEvent.Check(copy)) throw new ArmError('ARM_BAD_OUTPUT', `event ${JSON.stringify(event?.type)} does not match ArmEvent`)
        events.push(copy as ArmEvent)
      },
    }

    let outcome: { output: unknown } | { error: StepFailure }
    try {
      // aborted before it started: the arm is not called at all
      const work = stop.signal.aborted ? Promise.reject(stop.signal.reason) : this.arm.execute(request, ctx)
      const output = await untilAborted(work, stop.signal)
      const copy = jsonCopy(output)
      outcome =
        copy === undefined
          ? { error: stepFailure('ARM_BAD_OUTPUT', `arm ${this.arm.name} returned output that is not JSON`) }
          : { output: copy }
    } catch (err) {
      outcome = { error: failureOf(err, timedOut, signal.aborted, request.timeout_ms) }
    } finally {
      open = false
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    }

    const usage = llm.usage
    const provenance: Provenance = {
      arm: this.arm.name,
      tool: request.tool,
      started_at: startedAt,
      completed_at: new Date().toISOString(),
      duration_ms: Math.max(0, Math.round((performance.now() - started) * 1000) / 1000),
      tokens: { prompt: usage.prompt, completion: usage.completion, total: usage.prompt + usage.completion },
      model: llm.modelsUsed[0] ?? null,
      token_id: claims.tokenId,
    }
    return 'output' in outcome
      ? { status: 'completed', output: outcome.output, events, provenance }
      : { status: 'failed', error: outcome.error, events, provenance }
  }

  async close(): Promise<void> {
    await this.arm.close?.()
  }
}

/** The value as JSON would carry it; undefined when it cannot be carried (BigInt, cycles, undefined). */
function jsonCopy(value: unknown): unknown {
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch {
    return undefined
  }
  return text === undefined ? undefined : JSON.parse(text)
}

function failureOf(err: unknown, timedOut: boolean, aborted: boolean, timeoutMs: number): StepFailure {
  if (timedOut) return stepFailure('STEP_TIMEOUT', `the step ran past ${timeoutMs} ms`)
  if (aborted) return stepFailure('STEP_ABORTED', 'the call was aborted by the caller')
  if (err instanceof ArmError || err instanceof LlmError) return stepFailure(err.code, clip(err.message), err.retryable)
  return stepFailure('ARM_ERROR', messageOf(err))
}

export function messageOf(err: unknown): string {
  return clip(err instanceof Error ? err.message : String(err))
}

function clip(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message
}
