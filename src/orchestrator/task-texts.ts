/**
 * The free text of a task request, each piece with the field it came from: the goal, each
 * acceptance criterion, and every string (object key or value) inside constraints, context and
 * metadata. The task service screens each one with the goal's decision (task-service.ts), so text
 * that reaches a planner, coder or judge prompt from any field has been through the detector.
 *
 * ```ts
 * taskTexts({ goal: 'Sum 2 and 3', acceptance_criteria: ['says 5'], metadata: { k: 'v' } })
 * // [{ field: 'goal', text: 'Sum 2 and 3' }, { field: 'acceptance_criteria[0]', text: 'says 5' },
 * //  { field: 'metadata.k', text: 'k' }, { field: 'metadata.k', text: 'v' }]
 * ```
 *
 * Field names follow the validation errors' (validate.ts): `constraints[1]`, `context.notes`,
 * `metadata.a.b`; a key is named by the property it opens. A key longer than 64 characters is cut
 * in the name, so a name never repeats a long text back.
 *
 * Bounds: at most MAX_SCREENED_TEXTS texts (keys count) and MAX_SCREENED_DEPTH levels of nesting
 * per task; a request past either is a 400 naming the field, never screened in part. The walk is a
 * loop over an explicit stack (no recursion on the client's depth), and numbers, booleans and nulls
 * cost a step each, so a body at the size limit is walked in a few milliseconds.
 */
import { MAX_JSON_DEPTH } from '../http/body.js'
import { HttpError } from '../http/errors.js'
import type { CreateTaskRequest } from './schemas.js'

/** The most strings (keys and values, the goal included) one task may hold. */
export const MAX_SCREENED_TEXTS = 1000
/**
 * The deepest nesting of objects and arrays inside constraints, context or metadata: the HTTP
 * layer's one limit, kept here too for callers that create tasks without a request body.
 */
export const MAX_SCREENED_DEPTH = MAX_JSON_DEPTH

const MAX_KEY_IN_NAME = 64

export interface TaskText {
  field: string
  text: string
}

/** A container being walked: its name, depth, and the next child to visit. */
interface Frame {
  field: string
  depth: number
  node: object
  /** The object's keys; null for an array. */
  keys: readonly string[] | null
  length: number
  next: number
}

/** The task's texts in document order, goal first; a 400 past the bounds. */
export function taskTexts(
  req: Pick<CreateTaskRequest, 'goal' | 'acceptance_criteria' | 'constraints' | 'context' | 'metadata'>,
): TaskText[] {
  const out: TaskText[] = [{ field: 'goal', text: req.goal }]
  const roots: [string, unknown][] = [
    ['acceptance_criteria', req.acceptance_criteria],
    ['constraints', req.constraints],
    ['context', req.context],
    ['metadata', req.metadata],
  ]
  for (const [field, value] of roots) walk(field, value, out)
  return out
}

function walk(root: string, value: unknown, out: TaskText[]): void {
  const stack: Frame[] = []
  const visit = (field: string, v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      add(out, field, v, root)
      return
    }
    if (v === null || typeof v !== 'object') return
    if (depth >= MAX_SCREENED_DEPTH) throw HttpError.validation(field, `must nest at most ${MAX_SCREENED_DEPTH} levels`)
    const keys = Array.isArray(v) ? null : Object.keys(v)
    stack.push({ field, depth: depth + 1, node: v, keys, length: keys?.length ?? (v as unknown[]).length, next: 0 })
  }
  visit(root, value, 0)
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if (top.next === top.length) {
      stack.pop()
      continue
    }
    const i = top.next++
    const key = top.keys?.[i]
    if (key === undefined) {
      visit(`${top.field}[${i}]`, (top.node as unknown[])[i], top.depth)
      continue
    }
    const field = `${top.field}.${nameOf(key)}`
    add(out, field, key, root)
    visit(field, (top.node as Record<string, unknown>)[key], top.depth)
  }
}

function add(out: TaskText[], field: string, text: string, root: string): void {
  if (text === '') return
  if (out.length >= MAX_SCREENED_TEXTS)
    throw HttpError.validation(root, `must NOT bring the task past ${MAX_SCREENED_TEXTS} strings (keys and values)`)
  out.push({ field, text })
}

function nameOf(key: string): string {
  return key.length > MAX_KEY_IN_NAME ? `${key.slice(0, MAX_KEY_IN_NAME - 3)}...` : key
}
