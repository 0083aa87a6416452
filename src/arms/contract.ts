/**
 * The arm contract (docs/arms-and-tokens.md), declared once: what an arm is in code, and the wire
 * shapes of its three routes. The same `Arm` object serves in-process calls and its own HTTP
 * service; the host (`arm-host.ts`) verifies the capability token and builds the provenance either
 * way.
 *
 * ```ts
 * // POST {arm_url}/execute   Authorization: Bearer <capability token>
 * { "task_id": "t_…", "step_id": "s1", "tool": "shell", "action": "Count the lines",
 *   "goal": "run wc -l on …", "input": { "command": "wc", "args": ["-l"], "stdin": "a\nb\n" },
 *   "context": { "dep_outputs": {}, "acceptance_criteria": [], "constraints": {} },
 *   "budget": { "max_tokens": null }, "timeout_ms": 30000 }
 * // → 200 { "status": "completed", "output": { "exit_code": 0, "stdout": "2\n", … },
 * //         "events": [], "provenance": { "arm": "executor", "tool": "shell", … } }
 * ```
 *
 * A step that fails is still a 200 with `status: "failed"` and an error: the call succeeded, the
 * work did not, and the tokens it spent must still be counted. HTTP errors are for the protocol:
 * 400 bad request, 401 missing/invalid/expired token, 403 wrong audience or tool out of scope.
 */
import Type from 'typebox'
import type { TLocalizedValidationError } from 'typebox/error'
import { Value } from 'typebox/value'

import { ARM_NAMES, type ArmName as BuiltinArm } from '../config/schema.js'
import type { MeteredLlm } from '../llm/provider.js'
import { type FixedCode, retryableOf, type StepCode } from '../step-errors.js'
import { inputProblem } from './input-problem.js'

/** The six built-in arms. Registered external arms may use other names (`ArmNamePattern`). */
export const BUILTIN_ARMS = ARM_NAMES
export type { BuiltinArm }

/** Ports `ganglion arm <name>` listens on when given none. */
export const ARM_DEV_PORTS: Readonly<Record<BuiltinArm, number>> = {
  planner: 8002,
  executor: 8003,
  coder: 8004,
  judge: 8005,
  guardian: 8006,
  retriever: 8007,
}

/**
 * The tools each built-in arm offers: a capability token's `scope` names a subset, and a request's
 * `tool` must be in it.
 */
export const ARM_TOOLS: Readonly<Record<BuiltinArm, readonly string[]>> = {
  planner: ['plan'],
  executor: ['shell', 'javascript', 'http_fetch'],
  coder: ['generate', 'repair'],
  judge: ['validate'],
  guardian: ['scrub', 'screen'],
  retriever: ['search', 'recall'],
}

export const ArmNamePattern = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,62}$' })

export const ArmCapability = Type.Object({
  arm_id: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.String({ minLength: 1, maxLength: 128 }),
  description: Type.String({ maxLength: 2000 }),
  /** Tool names this arm serves (`ARM_TOOLS` for the built-in arms). */
  capabilities: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 64 }),
  input_schema: Type.Object({}, { additionalProperties: true }),
  output_schema: Type.Object({}, { additionalProperties: true }),
  cost_tier: Type.Enum(['low', 'medium', 'high']),
  /** Where the arm is reached: its URL, or `in-process`. */
  endpoint: Type.String({ minLength: 1, maxLength: 2048 }),
})
export type ArmCapability = Type.Static<typeof ArmCapability>

export const ExecuteRequest = Type.Object(
  {
    task_id: Type.String({ minLength: 1, maxLength: 128 }),
    step_id: Type.String({ minLength: 1, maxLength: 128 }),
    tool: Type.String({ minLength: 1, maxLength: 64 }),
    /** What the step is for, in words; personal data already replaced by placeholders. */
    action: Type.String({ maxLength: 20_000 }),
    /** The task's goal, redacted. */
    goal: Type.String({ maxLength: 20_000 }),
    /** Tool parameters (a command, code, a query…); each arm documents its own. */
    input: Type.Object({}, { additionalProperties: true }),
    context: Type.Object(
      {
        /** Outputs of the steps this one depends on, by step id. */
        dep_outputs: Type.Object({}, { additionalProperties: true }),
        acceptance_criteria: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 50 }),
        constraints: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.String())]),
      },
      { additionalProperties: false },
    ),
    /** LLM tokens this call may spend (the step's reservation); null = no limit. */
    budget: Type.Object({ max_tokens: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]) }, { additionalProperties: false }),
    timeout_ms: Type.Integer({ minimum: 1, maximum: 86_400_000 }),
  },
  { additionalProperties: false },
)
export type ExecuteRequest = Type.Static<typeof ExecuteRequest>

export const TokenUsage = Type.Object({
  prompt: Type.Integer({ minimum: 0 }),
  completion: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
})
export type TokenUsage = Type.Static<typeof TokenUsage>

/** Who produced a result, when, with what: stored with each step's output. */
export const Provenance = Type.Object({
  arm: Type.String(),
  tool: Type.String(),
  started_at: Type.String(),
  completed_at: Type.String(),
  duration_ms: Type.Number({ minimum: 0 }),
  tokens: TokenUsage,
  /** `provider/model` of the model calls made, or null when none were. */
  model: Type.Union([Type.String(), Type.Null()]),
  /** The capability token's `jti`. */
  token_id: Type.String(),
})
export type Provenance = Type.Static<typeof Provenance>

/** `guardrail.*` and other events an arm reports; the orchestrator appends them to the task's log. */
export const ArmEvent = Type.Object({
  type: Type.String({ pattern: '^[a-z]+\\.[a-z_.]+$' }),
  data: Type.Object({}, { additionalProperties: true }),
})
export type ArmEvent = Type.Static<typeof ArmEvent>

export const StepFailure = Type.Object({
  code: Type.String(),
  message: Type.String(),
  retryable: Type.Boolean(),
})

export const ExecuteResponse = Type.Union([
  Type.Object({
    status: Type.Literal('completed'),
    output: Type.Unknown(),
    events: Type.Array(ArmEvent),
    provenance: Provenance,
  }),
  Type.Object({
    status: Type.Literal('failed'),
    error: StepFailure,
    events: Type.Array(ArmEvent),
    provenance: Provenance,
  }),
])
export type ExecuteResponse = Type.Static<typeof ExecuteResponse>

/**
 * One arm as its caller reaches it: in-process (in-process-endpoint.ts) or over HTTP
 * (arm-client.ts). A refusal or a transport failure is thrown as a StepError (src/step-errors.ts).
 */
export interface ArmEndpoint {
  execute(request: ExecuteRequest, token: string, signal: AbortSignal): Promise<ExecuteResponse>
}

/** Finds an arm by name (registry.ts implements it). */
export interface ArmLookup {
  get(name: string): ArmEndpoint | undefined
  /** The registered (external) arms, for the planner; none when absent. */
  registered?(): Array<{ name: string; capability: ArmCapability }>
}

export const ArmHealth = Type.Object({
  status: Type.Enum(['healthy', 'degraded', 'unhealthy']),
  arm: Type.String(),
  version: Type.String(),
  /** Per-dependency detail (sandbox found, model reachable, store open…). */
  checks: Type.Object({}, { additionalProperties: true }),
})
export type ArmHealth = Type.Static<typeof ArmHealth>

/** What a verified capability token grants (see src/auth/capability-verifier.ts). */
export interface CapabilityClaims {
  /** `aud`: the arm the token is for. */
  arm: string
  /** `sub`: the task. */
  taskId: string
  /**
   * `tenant`: the task's tenant, signed by the orchestrator. An arm that reads stored knowledge or
   * memory reads this tenant's only (docs/security.md, "Tenants").
   */
  tenant: string
  stepId: string
  /** `scope`: the tools this call may use. */
  scope: readonly string[]
  /** `jti`. */
  tokenId: string
  /** `exp`, seconds since the epoch. */
  expiresAt: number
}

/** What the host hands an arm for one call. */
export interface ArmContext {
  /** Aborts on cancel, timeout or lost lease: pass it to every call that can take time. */
  signal: AbortSignal
  claims: CapabilityClaims
  /** Model access for this call, held to `request.budget.max_tokens`; usage is counted for provenance. */
  llm: MeteredLlm
  /** Reports an event (`guardrail.pii_redacted`, `guardrail.injection`…) for the task's log. */
  emit(event: ArmEvent): void
}

/**
 * A step that cannot be done: a code of the step error catalogue (src/step-errors.ts), and whether
 * trying again could help, which the catalogue says unless the code's flag varies. Anything else
 * an arm throws is reported as `ARM_ERROR`, retryable.
 */
export class ArmError extends Error {
  readonly code: StepCode
  readonly retryable: boolean

  constructor(code: FixedCode, message: string)
  constructor(code: StepCode, message: string, retryable: boolean)
  constructor(code: StepCode, message: string, retryable = retryableOf(code)) {
    super(message)
    this.name = 'ArmError'
    this.code = code
    this.retryable = retryable
  }
}

/**
 * `value` when `schema` holds for it; otherwise INPUT_INVALID naming the wrong field under
 * `where`, e.g. `input.query: must be string`, a union by the branch the value was meant for
 * (`input.constraints.1: must be string`) or by all it takes (`must be object or array`): see
 * input-problem.ts. For inputs read once per call (uncompiled check).
 */
export function checkedInput<S extends Type.TSchema>(schema: S, value: unknown, where: string): Type.Static<S> {
  if (Value.Check(schema, value)) return value as Type.Static<S>
  throw inputInvalid(Value.Errors(schema, value), where)
}

/** INPUT_INVALID worded as `checkedInput` words it, from a compiled check's `Errors`. */
export function inputInvalid(errors: readonly TLocalizedValidationError[], where: string): ArmError {
  const { path, message } = inputProblem(errors)
  return new ArmError('INPUT_INVALID', `${where}${path.replaceAll('/', '.')}: ${message}`)
}

export interface Arm {
  /** Its name: the token audience and the registry key. */
  readonly name: string
  /** Everything of ArmCapability except `endpoint`, which the host fills in. */
  readonly capability: Omit<ArmCapability, 'endpoint'>
  /** Does one step; returns its output (JSON-serialisable). Throws ArmError for a failure. */
  execute(request: ExecuteRequest, ctx: ArmContext): Promise<unknown>
  /** Dependency checks for `GET /health`; absent means nothing to check. */
  health?(): Promise<Pick<ArmHealth, 'status' | 'checks'>>
  /** Releases what the arm holds (sandboxes, pools). */
  close?(): Promise<void>
}
