/**
 * Moves a task on from what the database says, whoever calls it and however often: after a step
 * ends, after planning, and on any retry that finds its own work already done (a crash between a
 * commit and the next move). Every move is a conditional update, so racing callers are harmless.
 */
import { stepFailure } from '../../step-errors.js'
import { ACTIVE_STATUSES, isFinal, type StoredTask, type TaskError, type TaskStatus, type TaskUsage } from '../../stores/task.js'
import { endTaskSpan } from '../../telemetry/task-trace.js'
import { aggregate } from './aggregate.js'
import { queuePriority, STEP_RUN, type StepRunJob, type TaskRef } from './queues.js'
import { reasonForLog } from './replan-reason.js'
import type { RunnerContext } from './runner-context.js'

/**
 * `known`: the task as a write of this caller left it, read under the task row lock (a step move,
 * a transition); it is at least as recent as a read now would be at that moment, so it saves one.
 */
export async function advance(ctx: RunnerContext, ref: TaskRef, known?: StoredTask): Promise<void> {
  const task = known ?? (await ctx.store.get(ref.tenant, ref.task_id))
  if (!task) return
  const steps = task.plan.steps
  if (isFinal(task.status)) return
  if (task.status === 'cancelling') {
    // The running steps' own handlers come back here once they have stopped.
    if (steps.some((s) => s.status === 'running')) return
    return finishStopped(ctx, task, 'cancelled')
  }
  if (task.status !== 'running') return
  const failed = steps.find((s) => s.status === 'failed')
  if (failed) {
    if (failed.error?.code === 'VALIDATION_FAILED' && (await replanOnce(ctx, task, failed.step_id, failed.error.message))) {
      return advance(ctx, task)
    }
    return failTask(ctx, task, failed.error ?? stepFailure('STEP_FAILED', `step ${failed.step_id} failed`))
  }
  // Skipped steps in a running task are the ones a re-plan superseded. An empty plan completes too.
  if (steps.every((s) => s.status === 'completed' || s.status === 'skipped')) return completeTask(ctx, task)

  const status = new Map(steps.map((s) => [s.step_id, s.status]))
  const running = steps.filter((s) => s.status === 'running').length
  const ready = steps.filter((s) => s.status === 'pending' && s.depends_on.every((d) => status.get(d) === 'completed'))
  // Only as many as there is room for: a step refused as busy is sent again by the step that frees
  // its slot, which ends (and calls this) after the refusal, because both hold the task lock in turn.
  // The re-send is a new job even while the refused one is still active (test/queue). Two racing
  // callers may both send a step: its claim (pending -> running) lets one job run it.
  const room = Math.max(0, ctx.maxParallelArms - running)
  for (const step of ready.slice(0, room)) {
    const job: StepRunJob = { task_id: task.task_id, tenant: task.tenant, step_id: step.step_id, ready_at: Date.now() }
    // The task's priority: a critical task's steps do not wait behind a low one's either.
    await ctx.queue.send(STEP_RUN, job, { priority: queuePriority(task.priority) })
  }
}

/**
 * A failed validation (the judge's VALIDATION_FAILED) gets one new plan, told why the last one
 * failed (docs/lifecycle.md). New step ids carry an `rN-` prefix so they never collide with the plan
 * they follow. True when the task has a new plan to run, whoever wrote it: a racing process may
 * have re-planned first.
 */
async function replanOnce(ctx: RunnerContext, task: StoredTask, failedStep: string, reason: string): Promise<boolean> {
  if (task.replans >= ctx.maxReplans) return false
  let steps
  try {
    steps = await ctx.planner(task, reason)
  } catch (err) {
    ctx.log.warn({ err, task_id: task.task_id }, 're-plan failed; the task fails with its validation error')
    return false
  }
  const round = new Set(task.plan.steps.map((s) => /^r(\d+)-/.exec(s.step_id)?.[1]).filter(Boolean)).size + 1
  const rename = (id: string): string => `r${round}-${id}`
  const renamed = steps.map((s) => ({ ...s, step_id: rename(s.step_id), depends_on: (s.depends_on ?? []).map(rename) }))
  if (await ctx.store.replan(task.tenant, task.task_id, renamed, reason, ctx.maxReplans)) {
    // The reason's length and redacted head, not the reason: a judge quoting a long output makes it megabytes.
    ctx.log.info(
      { task_id: task.task_id, steps: renamed.length, ...reasonForLog(ctx.detector, reason) },
      'task re-planned after a failed validation',
    )
    return true
  }
  const now = await ctx.store.get(task.tenant, task.task_id)
  return now?.plan.steps.find((s) => s.step_id === failedStep)?.status !== 'failed'
}

/** Ends a task `cancelled` (from cancelling) or `timed_out` (from any active state), keeping partial results. */
export async function finishStopped(ctx: RunnerContext, ref: TaskRef, to: 'cancelled' | 'timed_out'): Promise<void> {
  const task = await ctx.store.get(ref.tenant, ref.task_id)
  if (!task || isFinal(task.status)) return
  const from: readonly TaskStatus[] = to === 'cancelled' ? ['cancelling'] : ACTIVE_STATUSES
  const patch = {
    settlePending: 'cancelled' as const,
    result: aggregate(task.plan.steps),
    usage: await usageOf(ctx, task),
    ...(to === 'timed_out' && { error: stepFailure('TIMEOUT', 'the task ran past its time limit', true) }),
  }
  const moved = await ctx.store.transition(task.tenant, task.task_id, from, to, patch)
  if (!moved) return
  ctx.registry.abort(task.task_id, to)
  finished(ctx, moved)
}

async function completeTask(ctx: RunnerContext, task: StoredTask): Promise<void> {
  const moved = await ctx.store.transition(task.tenant, task.task_id, ['running'], 'completed', {
    result: aggregate(task.plan.steps),
    usage: await usageOf(ctx, task),
    error: null,
  })
  if (!moved) return
  finished(ctx, moved)
  try {
    await ctx.onCompleted?.(moved)
  } catch (err) {
    ctx.log.warn({ err, task_id: task.task_id }, 'onCompleted failed')
  }
}

async function failTask(ctx: RunnerContext, task: StoredTask, error: TaskError): Promise<void> {
  // Steps that never started are skipped in the same transaction, so none can start after it.
  const moved = await ctx.store.transition(task.tenant, task.task_id, ['running'], 'failed', {
    settlePending: 'skipped',
    error,
    result: aggregate(task.plan.steps),
    usage: await usageOf(ctx, task),
  })
  if (!moved) return
  ctx.registry.abort(task.task_id, 'cancelled') // sibling steps here; the watcher stops them elsewhere
  finished(ctx, moved)
}

function finished(ctx: RunnerContext, task: StoredTask): void {
  const seconds = (Date.now() - Date.parse(task.created_at)) / 1000
  ctx.metrics?.taskFinished(task.status, seconds)
  endTaskSpan(task)
  ctx.log.info({ task_id: task.task_id, status: task.status, seconds }, 'task finished')
}

/**
 * Arm calls are step attempts plus the planner arm's plans (each logged as `task.planned`); LLM
 * tokens come from the `budget.usage` events the calls recorded.
 */
async function usageOf(ctx: RunnerContext, task: StoredTask): Promise<TaskUsage> {
  const { rows } = await ctx.sql.query<{ prompt: number | string | null; completion: number | string | null; plans: number | string }>(
    `select sum((data->>'prompt')::bigint) filter (where type = 'budget.usage') as prompt,
            sum((data->>'completion')::bigint) filter (where type = 'budget.usage') as completion,
            count(*) filter (where type = 'task.planned') as plans
       from task_events where task_id = $1 and type in ('budget.usage', 'task.planned')`,
    [task.task_id],
  )
  const prompt = Number(rows[0]?.prompt ?? 0)
  const completion = Number(rows[0]?.completion ?? 0)
  return {
    llm_tokens: { prompt, completion, total: prompt + completion },
    arm_calls: task.plan.steps.reduce((n, s) => n + s.attempts, 0) + Number(rows[0]?.plans ?? 0),
  }
}
