// A judge failure longer than the planner arm's previous_failure bound still gets the task its
// re-plan: the runner cuts the reason to fit, the real planner arm (behind its host, as in the
// service) plans again, and the stored task.replanned event keeps the whole reason.
import { ArmHost } from '../../../src/arms/arm-host.js'
import { type ArmEndpoint, BUILTIN_ARMS, type ExecuteResponse } from '../../../src/arms/contract.js'
import { InProcessArmEndpoint } from '../../../src/arms/in-process-endpoint.js'
import { createPlannerArm } from '../../../src/arms/planner/planner-arm.js'
import { MAX_PREVIOUS_FAILURE_CHARS } from '../../../src/arms/planner/planner-input.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { OfflineProvider } from '../../../src/llm/offline-provider.js'
import { armPlanner } from '../../../src/orchestrator/runner/arm-planner.js'
import { DelayStepRunner, StepError } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, type RunnerNode, testDetector, waitFinal } from '../../fixtures/runner-node.js'

const head = '1 of 1 checks failed: says 2: the output was '
const tail = '… and that is all it said.'
const reason = `${head}${'a line of quoted output\n'.repeat(2000)}${tail}`

onEachDatabase('re-plans after a judge failure longer than the planner takes', async (t, db) => {
  t.ok(reason.length > 2 * MAX_PREVIOUS_FAILURE_CHARS, `a ${reason.length}-character reason`)
  const issuer = await CapabilityIssuer.open({})
  const host = new ArmHost(createPlannerArm(), {
    verifier: issuer.localVerifier(),
    llm: new OfflineProvider(),
    endpoint: 'in-process',
    version: 'test',
  })
  const inProcess = new InProcessArmEndpoint(host)
  const told: unknown[] = []
  const answers: ExecuteResponse[] = []
  const planner: ArmEndpoint = {
    async execute(request, token, signal) {
      told.push((request.input as { previous_failure?: string }).previous_failure)
      const answer = await inProcess.execute(request, token, signal)
      answers.push(answer)
      return answer
    },
  }
  // The plan's steps run through the DelayStepRunner; the lookup only has to know their arms.
  const elsewhere: ArmEndpoint = { execute: () => Promise.reject(new Error('steps do not call arms in this test')) }
  const arms = {
    get: (name: string) => (name === 'planner' ? planner : (BUILTIN_ARMS as readonly string[]).includes(name) ? elsewhere : undefined),
  }
  // The first plan's judge refuses at length; the re-plan's judge passes.
  const steps = new DelayStepRunner({
    delayMs: 5,
    fail: (step) =>
      step.arm === 'judge' && !step.step_id.startsWith('r1-') ? new StepError('VALIDATION_FAILED', reason, false) : undefined,
  })
  let node: RunnerNode | undefined
  node = await db.node({
    steps,
    planner: (task, why) =>
      armPlanner({ arms, tokens: issuer, store: node!.store, stepTimeoutMs: 30_000, detector: testDetector() })(task, why),
  })

  const submitted = await node.submit({ goal: 'Count the lines of: a\nb', acceptance_criteria: ['says 2'] })
  const task = await waitFinal(node.store, submitted.task_id, 30_000)
  t.same(
    answers.map((a) => a.status),
    ['completed', 'completed'],
    'the planner arm planned twice, refusing nothing',
  )
  t.equal(task.status, 'completed', 'the re-plan ran and passed')
  t.ok(
    task.plan.steps.some((s) => s.step_id.startsWith('r1-') && s.arm === 'judge'),
    'under r1- ids',
  )

  t.equal(told.length, 2)
  t.equal(told[0], undefined, 'the first plan has no previous failure')
  const bounded = told[1] as string
  t.ok(bounded.length <= MAX_PREVIOUS_FAILURE_CHARS, `the planner was told ${bounded.length} characters`)
  t.ok(bounded.startsWith(head) && bounded.endsWith(tail), 'its head and tail')
  t.match(bounded, /\[…\d+ characters cut…\]/)

  const events = await node.store.eventsAfter(RUNNER_TENANT, task.task_id, 0, 200)
  const replanned = events.find((e) => e.type === 'task.replanned')
  t.equal((replanned?.data as { reason?: string } | undefined)?.reason, reason, 'the stored reason is whole')
})
