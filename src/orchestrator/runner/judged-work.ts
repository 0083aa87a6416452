/**
 * A scrub of the dependency outputs that follows a judge also gets the work the judge judged, so
 * the task's answer is that work, scrubbed, with the verdict beside it (aggregate.ts). A plan
 * usually ends work → judge → scrub, the scrub depending on the judge alone (its only leaf): the
 * scrubbed aggregate then held nothing but the verdict, and every judged task answered null.
 *
 * ```ts
 * scrubJudgedWork([s1 executor, s2 judge ← s1, s3 guardian.scrub ← s2])
 * // s3 depends on ['s2', 's1']: it runs after both and scrubs both
 * ```
 *
 * Whatever planned the task (the model, the rule planner, a re-plan), the plan is widened here,
 * before it is stored, so the record shows what the scrub really reads. Judges depending on judges
 * are followed through; a scrub of a given text (`input.text`) is left alone.
 */
import type { NewStep } from '../../stores/task-store.js'

export function scrubJudgedWork(steps: NewStep[]): NewStep[] {
  const byId = new Map(steps.map((s) => [s.step_id, s]))
  const judged = (id: string, seen: Set<string>): string[] => {
    const step = byId.get(id)
    if (step?.arm !== 'judge' || seen.has(id)) return []
    seen.add(id)
    return (step.depends_on ?? []).flatMap((d) => [d, ...judged(d, seen)])
  }
  return steps.map((step) => {
    if (step.arm !== 'guardian' || (step.tool ?? 'scrub') !== 'scrub' || step.input?.text !== undefined) return step
    const deps = step.depends_on ?? []
    const seen = new Set<string>()
    const widened = [...new Set([...deps, ...deps.flatMap((d) => judged(d, seen))])]
    return widened.length === deps.length ? step : { ...step, depends_on: widened }
  })
}
