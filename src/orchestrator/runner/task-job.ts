/**
 * `task.run` (plan, start) and `task.timeout` (end it timed out). Both are safe to repeat: a retry
 * resumes from whatever state the task reached.
 */
import { StepError } from '../../step-errors.js'
import { ACTIVE_STATUSES, type StoredTask } from '../../stores/task.js'
import { inTaskScope, taskContext } from '../../telemetry/task-trace.js'
import { inSpan } from '../../telemetry/tracing.js'
import type { QueueJob } from '../queue/job-queue.js'
import { advance, finishStopped } from './advance.js'
import { planFailure } from './plan-failure.js'
import { jobTask, type TaskRef, type TaskRunJob, type TaskTimeoutJob } from './queues.js'
import type { RunnerContext } from './runner-context.js'

export async function runTaskJob(ctx: RunnerContext, job: QueueJob<TaskRunJob>): Promise<void> {
  const ref = jobTask(job.data)
  const { task_id: taskId, tenant } = ref
  // Usually the task is queued: move it at once, and read it only when that is refused (a retry,
  // a task moved on by someone else, or gone).
  const task = (await ctx.store.transition(tenant, taskId, ['queued'], 'planning')) ?? (await ctx.store.get(tenant, taskId))
  if (!task) return
  // Logged and forwarded under the submitting request's id.
  return inTaskScope(task, () => planAndStart(ctx, job, ref, task))
}

async function planAndStart(ctx: RunnerContext, job: QueueJob<TaskRunJob>, ref: TaskRef, task: StoredTask): Promise<void> {
  const { task_id: taskId, tenant } = ref
  if (task.status === 'planning') {
    // A retry after a crash may find the plan already written; the planner is deterministic, but
    // writing it again would log a second task.plan event.
    if (task.plan.steps.length === 0) {
      let steps
      try {
        steps = await inSpan('task.plan', { attributes: { 'ganglion.task.id': taskId } }, taskContext(task), () => ctx.planner(task))
      } catch (err) {
        const retryable = !(err instanceof StepError && !err.retryable)
        const error = planFailure(err, retryable)
        const again = retryable && job.retryCount < ctx.taskRetryLimit
        ctx.log.warn({ task_id: taskId, step: 'plan', attempt: job.retryCount + 1, code: error.code, retrying: again }, 'planning failed')
        // pg-boss retries the job while retries remain; the last failure, or a final one, ends the task.
        if (again) throw err
        await ctx.store.transition(tenant, taskId, ['planning'], 'failed', { error })
        return
      }
      if (!(await ctx.store.upsertSteps(tenant, taskId, steps))) return
      ctx.log.debug({ task_id: taskId, steps: steps.length }, 'task planned')
    }
    const running = await ctx.store.transition(tenant, taskId, ['planning'], 'running')
    // Running: send the ready steps. Refused: someone else moved it; read it and act on that.
    return advance(ctx, ref, running ?? undefined)
  }
  // Running: send the ready steps (again, on a retry); cancelling: finish it; final: tidy up.
  await advance(ctx, ref, task)
}

export async function runTimeoutJob(ctx: RunnerContext, job: QueueJob<TaskTimeoutJob>): Promise<void> {
  const ref = jobTask(job.data)
  const task = await ctx.store.get(ref.tenant, ref.task_id)
  if (!task || !ACTIVE_STATUSES.includes(task.status)) return // finished in time: nothing to do
  await finishStopped(ctx, ref, 'timed_out')
}
