/**
 * The judge arm (docs/arms/judge.md): checks what the steps it depends on produced against explicit
 * checks and the task's acceptance criteria. Deterministic checks first; criteria whose wording is
 * clear become deterministic checks too (criteria.ts); the rest go to the model when the step has
 * one that reasons, and are reported `unverified` (not failed) when it has not.
 *
 * ```ts
 * const judge = createJudgeArm()
 * await judge.execute({ …, tool: 'validate', input: { checks: [{ type: 'exit_code', equals: 0 }] },
 *   context: { dep_outputs: { s1: { exit_code: 0, stdout: '6765\n' } }, acceptance_criteria: ['contains 6765'], … } }, ctx)
 * // → { passed: true, checks: [{ criterion: 'exit code is 0', method: 'deterministic', passed: true, detail: … }, …] }
 * ```
 *
 * Any failed check throws ArmError('VALIDATION_FAILED') naming each failed criterion and why; the
 * orchestrator re-plans once with that message. Unverified criteria do not fail the step: offline,
 * failing them would fail every task whose criteria are judgements, and the judge would then
 * claim a defect it never saw. The output says which criteria were unverified, so a reader (or a
 * stricter caller through `checks`) can tell.
 */
import Type from 'typebox'

import { CheckBudget, DEFAULT_CHECK_BUDGET_MS } from '../check-budget.js'
import { ARM_TOOLS, type Arm, type ArmContext, ArmError, checkedInput, type ExecuteRequest } from '../contract.js'
import { Check, describeCheck, parseCheck, runCheck } from './checks.js'
import { translateCriterion } from './criteria.js'
import { modelVerdicts } from './model-verdicts.js'

export const JudgeInput = Type.Object(
  {
    /** Explicit checks, run first. */
    checks: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
    /** Criteria in words; default the task's acceptance criteria. */
    criteria: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
)
export type JudgeInput = Type.Static<typeof JudgeInput>

export const CheckResult = Type.Object({
  criterion: Type.String(),
  method: Type.Enum(['deterministic', 'model', 'unverified']),
  /** Unverified criteria are reported passed: see the module header. */
  passed: Type.Boolean(),
  detail: Type.String(),
})
export type CheckResult = Type.Static<typeof CheckResult>

export const JudgeOutput = Type.Object({ passed: Type.Literal(true), checks: Type.Array(CheckResult) })
export type JudgeOutput = Type.Static<typeof JudgeOutput>

export interface JudgeOptions {
  /** Milliseconds the deterministic checks of one call may take together (CHECK_BUDGET_MS). */
  checkBudgetMs?: number
}

export function createJudgeArm(opts: JudgeOptions = {}): Arm {
  const budgetMs = opts.checkBudgetMs ?? DEFAULT_CHECK_BUDGET_MS
  return {
    name: 'judge',
    capability: {
      arm_id: 'judge',
      name: 'Judge',
      description:
        'Checks the outputs of the steps it depends on against explicit checks (json_schema, regex, contains, not_contains, equals, exit_code, max_length, min_length, valid_json) and the task acceptance criteria: deterministic checks first, model judgement for the rest when a reasoning model is configured. Fails with VALIDATION_FAILED, naming each failed criterion.',
      capabilities: [...ARM_TOOLS.judge],
      input_schema: { ...JudgeInput, properties: { ...JudgeInput.properties, checks: { type: 'array', maxItems: 100, items: Check } } },
      output_schema: JudgeOutput,
      cost_tier: 'low',
    },
    execute: (request, ctx) => judge(request, ctx, new CheckBudget(budgetMs)),
  }
}

async function judge(request: ExecuteRequest, ctx: ArmContext, budget: CheckBudget): Promise<JudgeOutput> {
  if (request.tool !== 'validate') throw new ArmError('TOOL_UNKNOWN', `the judge has no tool '${request.tool}' (validate)`)
  const input = checkedInput(JudgeInput, request.input, 'input')
  const checks = (input.checks ?? []).map((raw, i) => parseCheck(raw, `input.checks.${i}`))
  const criteria = input.criteria ?? request.context.acceptance_criteria
  if (checks.length === 0 && criteria.length === 0)
    throw new ArmError('INPUT_INVALID', 'nothing to judge: give input.checks or input.criteria, or acceptance criteria on the task')

  // criteria with clear wording become checks; their regexes are checked like explicit ones
  const open: string[] = []
  criteria.forEach((criterion, i) => {
    const translated = translateCriterion(criterion)
    if (translated === undefined) open.push(criterion)
    else checks.push(parseCheck(translated, `criteria.${i}`))
  })

  const subject = request.context.dep_outputs as Record<string, unknown>
  const results: CheckResult[] = []
  for (const check of checks) {
    await budget.breathe()
    ctx.signal.throwIfAborted()
    results.push({ criterion: describeCheck(check), method: 'deterministic', ...(await runCheck(check, subject, budget)) })
  }

  if (open.length > 0 && ctx.llm.reasoning) {
    for (const v of await modelVerdicts(ctx.llm, open, subject, request.goal, ctx.signal)) {
      results.push(
        v.passed === undefined
          ? { criterion: v.criterion, method: 'unverified', passed: true, detail: v.reason }
          : { criterion: v.criterion, method: 'model', passed: v.passed, detail: v.reason },
      )
    }
  } else {
    for (const criterion of open)
      results.push({
        criterion,
        method: 'unverified',
        passed: true,
        detail: 'no deterministic check fits the wording and no reasoning model is configured',
      })
  }

  const failed = results.filter((r) => !r.passed)
  if (failed.length > 0) {
    const reasons = failed.map((r) => `"${r.criterion.slice(0, 200)}" (${r.method}): ${r.detail.slice(0, 300)}`)
    throw new ArmError('VALIDATION_FAILED', `${failed.length} of ${results.length} checks failed: ${reasons.join('; ')}`)
  }
  return { passed: true, checks: results }
}
