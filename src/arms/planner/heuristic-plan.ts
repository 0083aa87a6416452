/**
 * The planner's deterministic path: the goal's intents (goal-intents.ts) become work steps, then a
 * judge when there are criteria, then a guardian scrub. Same input, same plan.
 *
 * ```ts
 * heuristicPlan({ goal: 'Compute the 20th Fibonacci number in JavaScript', allowed: null, criteria: ['6765'] })
 * // s1 coder.generate → s2 executor.javascript → s3 judge.validate → s4 guardian.scrub
 * ```
 *
 * Independent work steps depend on nothing, so they run in parallel; only code waits for its coder.
 * An intent whose arms `allowed_arms` excludes is dropped; when nothing is left there is no plan
 * (PLAN_NOT_POSSIBLE). A goal with no intent is a question for the knowledge base when it reads as
 * one, and otherwise needs a model (MODEL_REQUIRED): offline, nothing completes with a non-answer.
 */
import { ArmError } from '../contract.js'
import type { PlanStep } from './check-plan.js'
import { type Intent, readIntents } from './goal-intents.js'

export interface HeuristicInput {
  /** Redacted. */
  goal: string
  /** `constraints.allowed_arms`, or null; the guardian is always allowed. */
  allowed: readonly string[] | null
  acceptanceCriteria: readonly string[]
  /** Why the last plan failed, when this is a re-plan. */
  previousFailure?: string
  /** The reflex layer's routing hint, used only when no intent is recognised. */
  suggestedArms?: readonly string[]
}

/** The retriever's longest query. */
const MAX_QUERY = 2000

type Draft = Omit<PlanStep, 'step_id' | 'depends_on'> & { after?: 'previous' }

export function heuristicPlan(input: HeuristicInput): PlanStep[] {
  const ok = (arm: string): boolean => arm === 'guardian' || input.allowed === null || input.allowed.includes(arm)
  const intents = readIntents(input.goal)
  const criteria = intents.flatMap((i) => (i.kind === 'validate' && i.criterion ? [i.criterion] : []))
  const asked = intents.map((i) => drafts(i, input.goal)).filter((d) => d.length > 0)
  let work = asked.filter((d) => d.every((s) => ok(s.arm)))
  if (asked.length > 0 && work.length === 0) {
    const arms = [...new Set(asked.flat().map((s) => s.arm))].filter((arm) => !ok(arm))
    throw new ArmError('PLAN_NOT_POSSIBLE', `the goal asks for ${arms.join(', ')}, which allowed_arms excludes`)
  }
  // A check with no work of its own ("check whether the refund window is 30 days") asks a question.
  if (work.length === 0) work = [unrecognised(input, ok, criteria.length > 0)]
  if (input.previousFailure !== undefined) work = widen(work, input.goal, ok)

  const steps: PlanStep[] = []
  const add = (draft: Draft, depends_on: string[]): string => {
    const step_id = `s${steps.length + 1}`
    const { after: _, ...rest } = draft
    steps.push({ step_id, ...rest, depends_on })
    return step_id
  }
  let last = work.map((group) => group.reduce<string | null>((prev, d) => add(d, d.after === 'previous' && prev ? [prev] : []), null)!)
  if ((criteria.length > 0 || input.acceptanceCriteria.length > 0) && ok('judge')) {
    const n = criteria.length + input.acceptanceCriteria.length
    // Criteria given to the judge replace the task's, so the goal's own go with the task's.
    const given = criteria.length > 0 ? { criteria: [...criteria, ...input.acceptanceCriteria] } : {}
    last = [
      add(
        { arm: 'judge', tool: 'validate', action: `Check the results against ${n} ${n === 1 ? 'criterion' : 'criteria'}.`, input: given },
        last,
      ),
    ]
  }
  const tail = steps[steps.length - 1]!
  const endsInScrub = last.length === 1 && tail.arm === 'guardian' && tail.tool === 'scrub'
  if (!endsInScrub) add({ arm: 'guardian', tool: 'scrub', action: 'Scrub personal data and secrets from the results.', input: {} }, last)
  return steps
}

/** The steps one intent needs; a later step with `after: 'previous'` depends on the one before. */
function drafts(intent: Intent, goal: string): Draft[] {
  switch (intent.kind) {
    case 'search':
      return [searchStep(intent.query || goal, intent.summarise)]
    case 'shell':
      return [
        {
          arm: 'executor',
          tool: 'shell',
          action: `Run ${[intent.command, ...intent.args].join(' ')}${intent.stdin !== undefined ? ' on the given text' : ''}.`,
          input: {
            command: intent.command,
            ...(intent.args.length > 0 && { args: intent.args }),
            ...(intent.stdin !== undefined && { stdin: intent.stdin }),
          },
        },
      ]
    case 'code':
      return codeSteps(intent.spec || goal)
    case 'evaluate':
      return [{ arm: 'executor', tool: 'javascript', action: 'Evaluate the JavaScript expression.', input: { code: intent.code } }]
    case 'fetch':
      return [{ arm: 'executor', tool: 'http_fetch', action: `Fetch ${intent.url}.`, input: { url: intent.url } }]
    case 'scrub':
      return [
        { arm: 'guardian', tool: 'scrub', action: 'Redact personal data and secrets from the given text.', input: { text: intent.text } },
      ]
    case 'validate':
      return [] // criteria for the judge, not work of their own
  }
}

function searchStep(query: string, summarise: boolean, action?: string): Draft {
  return {
    arm: 'retriever',
    tool: 'search',
    action: action ?? `Search the knowledge base for "${brief(query)}"${summarise ? ' and summarise the hits' : ''}.`,
    input: { query: query.slice(0, MAX_QUERY), ...(summarise && { summarise: true }) },
  }
}

function codeSteps(spec: string): Draft[] {
  return [
    { arm: 'coder', tool: 'generate', action: 'Write JavaScript that computes the answer.', input: { language: 'javascript', spec } },
    { arm: 'executor', tool: 'javascript', action: 'Run the generated JavaScript.', input: {}, after: 'previous' },
  ]
}

/**
 * No intent recognised. A computation the reflex hint routes to code goes to the coder; a question
 * is answered from the knowledge base, and only from its hits (`require_hits`: no hits fails the
 * step NO_KNOWLEDGE_MATCH); anything else needs a model to plan (MODEL_REQUIRED).
 */
function unrecognised(input: HeuristicInput, ok: (arm: string) => boolean, checks: boolean): Draft[] {
  const hint = input.suggestedArms ?? []
  const computes = /\b(?:compute|calculate|work\s+out)\b/i.test(input.goal) && (hint.includes('coder') || hint.includes('executor'))
  if (computes && ok('coder') && ok('executor')) return codeSteps(input.goal)
  if (!checks && !asksAQuestion(input.goal))
    throw new ArmError(
      'MODEL_REQUIRED',
      'this goal needs a language model: no offline rule recognises it (configure LLM_PROVIDER, docs/llm.md)',
    )
  if (ok('retriever')) {
    const step = searchStep(input.goal, true, 'Answer from the knowledge base (no specific tool was recognised in the goal).')
    return [{ ...step, input: { ...step.input, require_hits: true } }]
  }
  throw new ArmError('PLAN_NOT_POSSIBLE', `no allowed arm can do this goal (allowed_arms: ${input.allowed?.join(', ') || 'none'})`)
}

/** A question, or a request to tell or list what is known: what the knowledge base can answer. */
function asksAQuestion(goal: string): boolean {
  return goal.trimEnd().endsWith('?') || QUESTION_START.test(goal)
}
const QUESTION_START =
  /^\s*(?:what|who|whom|whose|where|when|why|how|which|is|are|was|were|do|does|did|can|could|should|would|will|has|have|tell\s+me|explain|describe|list|name)\b/i

/**
 * A re-plan after a failed validation: the same work, looking wider. Searches return more hits
 * (k 10), and a retriever recall of similar past tasks runs beside the work so the judge and the
 * answer have more to go on. Deterministic; a different approach needs the model path.
 */
function widen(work: Draft[][], goal: string, ok: (arm: string) => boolean): Draft[][] {
  const wider = work.map((group) =>
    group.map((d) => (d.arm === 'retriever' && d.tool === 'search' ? { ...d, input: { k: 10, ...d.input } } : d)),
  )
  if (!ok('retriever')) return wider
  return [
    ...wider,
    [{ arm: 'retriever', tool: 'recall', action: 'Recall similar past tasks for more context.', input: { goal: brief(goal, 2000), k: 3 } }],
  ]
}

function brief(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`
}
