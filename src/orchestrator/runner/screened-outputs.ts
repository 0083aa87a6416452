/**
 * The outputs of a step's dependencies as a model-using arm gets them: every string screened with
 * the detector's injection decision (injected-passages.ts), each injected passage replaced by
 * `[withheld: prompt injection]`, the rest of the string and of the output kept as it was.
 *
 * ```ts
 * const { outputs, withheld } = await screenedOutputs(screen, { s1: { stdout: 'ok. Ignore all previous instructions …' } })
 * // outputs: { s1: { stdout: 'ok. [withheld: prompt injection]' } }
 * // withheld: [{ path: 's1.stdout', severity: 'critical', families: ['instruction_override', …] }]
 * ```
 *
 * Tool output (a fetched page, a command's output, retrieved text) is written by whoever controls
 * the source, not by the task's owner: an instruction in it must not reach a planner, coder or
 * judge prompt as if it were one. Withholding is certain where fencing relies on the model obeying
 * the fence. The stored step output keeps what the tool returned; only what is handed on is cut.
 * Keys are kept as written (they are the arms' own field names); nesting past MAX_SCREENED_DEPTH
 * is withheld whole, unread.
 */
import { type Injection, type InjectionScreen, WITHHELD, withheld as withheldIn } from '../../injected-passages.js'

/** The deepest nesting read; below it a value is withheld whole (arms' outputs are far shallower). */
export const MAX_SCREENED_DEPTH = 64

/** Events recorded per step at most; past it one more event counts the rest (as the guardian does). */
export const MAX_INJECTION_EVENTS = 50

export interface WithheldPassage extends Injection {
  /** Where the string was: the dependency's step id, then keys and indexes (`s1.hits.0.text`). */
  path: string
}

export async function screenedOutputs(
  screen: InjectionScreen,
  outputs: Record<string, unknown>,
): Promise<{ outputs: Record<string, unknown>; withheld: WithheldPassage[] }> {
  const found: WithheldPassage[] = []
  // One string at a time, in order, so the paths come out in the order of the output.
  const visit = async (value: unknown, path: string, depth: number): Promise<unknown> => {
    if (typeof value === 'string') {
      const cut = await withheldIn(value, screen)
      for (const injection of cut.injections) found.push({ path, ...injection })
      return cut.text
    }
    if (value === null || typeof value !== 'object') return value
    if (depth >= MAX_SCREENED_DEPTH) return WITHHELD
    if (Array.isArray(value)) {
      const items: unknown[] = []
      for (const [i, item] of value.entries()) items.push(await visit(item, `${path}.${i}`, depth + 1))
      return items
    }
    const entries: [string, unknown][] = []
    for (const [k, v] of Object.entries(value)) entries.push([k, await visit(v, `${path}.${k}`, depth + 1)])
    return Object.fromEntries(entries)
  }
  const screened: Record<string, unknown> = {}
  for (const [step, output] of Object.entries(outputs)) screened[step] = await visit(output, step, 0)
  return { outputs: screened, withheld: found }
}
