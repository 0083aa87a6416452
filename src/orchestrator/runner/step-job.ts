/**
 * One `step.run` job: claim the step (at most once, within the task's running limit), run it with a
 * signal that cancel, timeout and lease loss all reach, record the outcome, move the task on.
 */
import { injectionScreen } from '../../injected-passages.js'
import { StepError, stepFailure } from '../../step-errors.js'
import { isFinal, type StoredTask, type TaskError, type TaskStatus, type TaskStep } from '../../stores/task.js'
import { inTaskScope, taskContext } from '../../telemetry/task-trace.js'
import { inSpan } from '../../telemetry/tracing.js'
import type { QueueJob } from '../queue/job-queue.js'
import { type AbortKind, StepAbort } from './abort-registry.js'
import { advance, finishStopped } from './advance.js'
import { usesModel } from './call-arm.js'
import { jobTask, type StepRunJob, type TaskRef } from './queues.js'
import type { RunnerContext } from './runner-context.js'
import { MAX_INJECTION_EVENTS, screenedOutputs } from './screened-outputs.js'
import type { StepResult } from './step-runner.js'

type Outcome = { ok: true; result: StepResult } | { ok: false; error: unknown }

export async function runStepJob(ctx: RunnerContext, job: QueueJob<StepRunJob>): Promise<void> {
  const ref = jobTask(job.data)
  const { task_id: taskId, tenant } = ref
  const stepId = job.data.step_id
  // The claim reads the task under its row lock and answers with it: no read before it.
  const claim = await ctx.store.claimStep(tenant, taskId, stepId, {
    from: job.retryCount > 0 ? ['pending', 'running'] : ['pending'],
    maxRunning: ctx.maxParallelArms,
    staleAfterSeconds: ctx.stepLeaseSeconds,
    taskFrom: ['running'],
  })
  if (claim.outcome === 'busy') return // the step that frees a slot sends this one again
  if (claim.outcome === 'unavailable') {
    if (claim.status === null) return
    if (claim.status !== 'running') return releaseStopped(ctx, job, ref, claim.status)
    if (job.retryCount === 0) return // a duplicate delivery: the step's owner moves the task on
    const now = await ctx.store.get(tenant, taskId)
    if (!now) return
    if (now.status !== 'running') return releaseStopped(ctx, job, ref, now.status)
    // Running but not yet stale: its worker may be alive. Come back after the backoff.
    if (now.plan.steps.find((s) => s.step_id === stepId)?.status === 'running') throw new Error(`step ${stepId} is still leased`)
    return advance(ctx, ref, now) // the crash fell between the step's commit and the task's next move
  }
  const { step, task } = claim
  // Logged and forwarded under the submitting request's id.
  return inTaskScope(task, () => runClaimed(ctx, job, ref, step, task))
}

/** The claimed step run, its outcome recorded and the task moved on. */
async function runClaimed(ctx: RunnerContext, job: QueueJob<StepRunJob>, ref: TaskRef, step: TaskStep, task: StoredTask): Promise<void> {
  const { task_id: taskId, tenant } = ref
  const stepId = step.step_id
  ctx.metrics?.dispatchLatency(Math.max(0, Date.now() - job.data.ready_at) / 1000)
  ctx.metrics?.stepStarted(step.arm)

  const controller = new AbortController()
  const unregister = ctx.registry.add(taskId, controller)
  const onLease = (): void => controller.abort(new StepAbort('lease_lost'))
  job.signal.addEventListener('abort', onLease, { once: true })
  const toDeadline = task.deadline_at ? Date.parse(task.deadline_at) - Date.now() : Infinity
  const limit = Math.min(ctx.stepTimeoutMs, toDeadline)
  const timer = setTimeout(
    () => controller.abort(new StepAbort(toDeadline <= ctx.stepTimeoutMs ? 'timed_out' : 'step_timeout')),
    Math.max(0, limit),
  )
  const began = performance.now()
  let outcome: Outcome
  try {
    const goal = ctx.detector.redact(task.goal).redacted_text
    const outputs = new Map(task.plan.steps.map((s) => [s.step_id, s.output]))
    const given = Object.fromEntries(step.depends_on.map((d) => [d, outputs.get(d) ?? null]))
    const depOutputs = usesModel(step.arm) ? await screenForModel(ctx, ref, stepId, given) : given
    const attributes = {
      'ganglion.task.id': taskId,
      'ganglion.step.id': stepId,
      'ganglion.arm': step.arm,
      ...(step.tool !== null && { 'ganglion.tool': step.tool }),
      'ganglion.step.attempt': step.attempts,
    }
    const run = () => ctx.steps.run(step, { goal, task, depOutputs }, controller.signal)
    outcome = { ok: true, result: await inSpan('task.step', { attributes }, taskContext(task), run) }
  } catch (error) {
    outcome = { ok: false, error }
  } finally {
    clearTimeout(timer)
    job.signal.removeEventListener('abort', onLease)
    unregister()
  }
  const seconds = (performance.now() - began) / 1000

  // A stop wins over a result that arrived too late to matter.
  const aborted = controller.signal.aborted ? abortKind(controller.signal.reason) : null
  if (aborted === 'cancelled' || aborted === 'timed_out') {
    await ctx.store.updateStep(tenant, taskId, stepId, ['running'], 'cancelled', { error: stopError(aborted) })
    ctx.metrics?.stepFinished(step.arm, 'cancelled', seconds)
    if (aborted === 'timed_out') await finishStopped(ctx, ref, 'timed_out')
    return advance(ctx, ref)
  }
  if (aborted === 'lease_lost') {
    // pg-boss has already given this attempt up and will retry the job: hand the step back.
    await ctx.store.updateStep(tenant, taskId, stepId, ['running'], 'pending', { error: stopError(aborted) })
    ctx.metrics?.stepFinished(step.arm, 'pending', seconds)
    throw new Error(`step ${stepId} lost its lease`)
  }
  if (outcome.ok && aborted === null) {
    const { output, provenance } = outcome.result
    const done = await ctx.store.moveStep(
      tenant,
      taskId,
      stepId,
      ['running'],
      'completed',
      provenance === undefined ? { output } : { output, provenance },
    )
    if (done && outcome.result.usage) {
      await ctx.store.appendEvent(tenant, taskId, { type: 'budget.usage', data: { step_id: stepId, ...outcome.result.usage } })
    }
    ctx.metrics?.stepFinished(step.arm, 'completed', seconds)
    // The move read the task under its lock: advance starts from that instead of reading it again.
    return advance(ctx, ref, done?.task)
  }
  const error =
    aborted === 'step_timeout'
      ? stepFailure('STEP_TIMEOUT', `step ${stepId} ran past ${ctx.stepTimeoutMs} ms`)
      : toTaskError(outcome.ok ? new Error('unreachable') : outcome.error)
  return failAttempt(ctx, step, ref, error, seconds)
}

/**
 * Dependency outputs for an arm that may call a model: injected passages withheld
 * (screened-outputs.ts), each recorded as a `guardrail.injection` event naming the step it is
 * withheld from and where it was (`{ step_id, path, severity, families, withheld: true }`).
 */
async function screenForModel(
  ctx: RunnerContext,
  ref: TaskRef,
  stepId: string,
  given: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { outputs, withheld } = await screenedOutputs(injectionScreen(ctx.detector), given)
  const event = (data: Record<string, unknown>) =>
    ctx.store.appendEvent(ref.tenant, ref.task_id, { type: 'guardrail.injection', data: { step_id: stepId, ...data, withheld: true } })
  for (const w of withheld.slice(0, MAX_INJECTION_EVENTS)) await event({ path: w.path, severity: w.severity, families: w.families })
  if (withheld.length > MAX_INJECTION_EVENTS) await event({ more: withheld.length - MAX_INJECTION_EVENTS })
  return outputs
}

/**
 * The task is stopping or over: the step is not run. A retry means the attempt before it is gone
 * (lease out or crashed), so a step it left running is released too; then the task moves on
 * (cancelling → cancelled with the partial result).
 */
async function releaseStopped(ctx: RunnerContext, job: QueueJob<StepRunJob>, ref: TaskRef, status: TaskStatus): Promise<void> {
  if (status !== 'cancelling' && !isFinal(status)) return // queued/planning: no step job belongs here yet
  const from = job.retryCount > 0 ? (['pending', 'running'] as const) : (['pending'] as const)
  await ctx.store.updateStep(ref.tenant, ref.task_id, job.data.step_id, from, 'cancelled')
  await advance(ctx, ref)
}

async function failAttempt(ctx: RunnerContext, step: TaskStep, ref: TaskRef, error: TaskError, seconds: number): Promise<void> {
  const { task_id: taskId, tenant } = ref
  // attempts counts this one: attempts - 1 retries have been spent.
  if (error.retryable && step.attempts <= ctx.stepRetryLimit) {
    await ctx.store.updateStep(tenant, taskId, step.step_id, ['running'], 'pending', { error })
    ctx.metrics?.stepFinished(step.arm, 'pending', seconds)
    ctx.log.warn({ task_id: taskId, step_id: step.step_id, attempt: step.attempts, error }, 'step attempt failed; retrying')
    throw StepError.reported(error) // pg-boss retries the job with backoff
  }
  const moved = await ctx.store.moveStep(tenant, taskId, step.step_id, ['running'], 'failed', { error: { ...error, retryable: false } })
  ctx.metrics?.stepFinished(step.arm, 'failed', seconds)
  ctx.log.warn({ task_id: taskId, step_id: step.step_id, error }, 'step failed')
  await advance(ctx, ref, moved?.task)
}

function abortKind(reason: unknown): AbortKind {
  return reason instanceof StepAbort ? reason.kind : 'lease_lost'
}

function stopError(kind: AbortKind): TaskError {
  if (kind === 'cancelled') return stepFailure('CANCELLED', 'the task was cancelled')
  if (kind === 'timed_out') return stepFailure('TIMEOUT', 'the task ran past its time limit', false)
  return stepFailure('LEASE_LOST', 'the worker lost the job lease')
}

function toTaskError(err: unknown): TaskError {
  if (err instanceof StepError) return { code: err.code, message: err.message, retryable: err.retryable }
  return stepFailure('STEP_ERROR', err instanceof Error ? err.message : String(err))
}
