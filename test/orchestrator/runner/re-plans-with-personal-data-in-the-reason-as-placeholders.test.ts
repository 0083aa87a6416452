// A judge's refusal quotes the output it refused, personal data and all. When the task re-plans,
// the planner arm (real, behind its host, as in the service) is told the reason with that data
// replaced by placeholders, as it is told the goal; the stored task.replanned event keeps the
// client's own reason, as the failed step's error does.
import { ArmHost } from '../../../src/arms/arm-host.js'
import { type ArmEndpoint, BUILTIN_ARMS, type ExecuteRequest } from '../../../src/arms/contract.js'
import { InProcessArmEndpoint } from '../../../src/arms/in-process-endpoint.js'
import { createPlannerArm } from '../../../src/arms/planner/planner-arm.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { OfflineProvider } from '../../../src/llm/offline-provider.js'
import { armPlanner } from '../../../src/orchestrator/runner/arm-planner.js'
import { judgeError } from '../../arms/judge/judge-fixture.js'
import { DelayStepRunner, StepError } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, type RunnerNode, testDetector, waitFinal } from '../../fixtures/runner-node.js'

const EMAIL = 'ada@example.com'
const CARD = '4111 1111 1111 1111'

onEachDatabase('re-plans with personal data in the reason as placeholders', async (t, db) => {
  // The real judge's message for an output that is not the answer: it quotes the output.
  const refusal = await judgeError({
    deps: { s1: { exit_code: 0, stdout: `mail ${EMAIL}, card ${CARD}`, stderr: '' } },
    input: { checks: [{ type: 'equals', value: '42', path: 's1.stdout' }] },
  })
  t.ok(refusal.message.includes(EMAIL) && refusal.message.includes(CARD), `the judge quotes both: ${refusal.message}`)

  const issuer = await CapabilityIssuer.open({})
  const host = new ArmHost(createPlannerArm(), {
    verifier: issuer.localVerifier(),
    llm: new OfflineProvider(),
    endpoint: 'in-process',
    version: 'test',
  })
  const inProcess = new InProcessArmEndpoint(host)
  const asked: ExecuteRequest[] = []
  const planner: ArmEndpoint = {
    execute(request, token, signal) {
      asked.push(request)
      return inProcess.execute(request, token, signal)
    },
  }
  const elsewhere: ArmEndpoint = { execute: () => Promise.reject(new Error('steps do not call arms in this test')) }
  const arms = {
    get: (name: string) => (name === 'planner' ? planner : (BUILTIN_ARMS as readonly string[]).includes(name) ? elsewhere : undefined),
  }
  const steps = new DelayStepRunner({
    delayMs: 5,
    fail: (step) =>
      step.arm === 'judge' && !step.step_id.startsWith('r1-') ? new StepError('VALIDATION_FAILED', refusal.message, false) : undefined,
  })
  let node: RunnerNode | undefined
  node = await db.node({
    steps,
    planner: (task, why) =>
      armPlanner({ arms, tokens: issuer, store: node!.store, stepTimeoutMs: 30_000, detector: testDetector() })(task, why),
  })

  const submitted = await node.submit({ goal: 'Count the lines of: a\nb', acceptance_criteria: ['says 42'] })
  const task = await waitFinal(node.store, submitted.task_id, 30_000)
  t.equal(task.status, 'completed', 'the re-plan ran and passed')
  t.equal(asked.length, 2, 'planned, then planned again')

  const told = (asked[1]!.input as { previous_failure?: string }).previous_failure ?? ''
  t.match(told, /\[EMAIL_1\]/, 'the address as a placeholder')
  t.match(told, /\[CREDIT_CARD_1\]/, 'the card number as a placeholder')
  t.notOk(told.includes(EMAIL) || told.includes(CARD) || /\d{4}/.test(told), `nothing raw: ${told}`)
  t.equal(told, refusal.message.replace(EMAIL, '[EMAIL_1]').replace(CARD, '[CREDIT_CARD_1]'), 'the rest as the judge said it')
  t.notOk(JSON.stringify(asked[1]).includes(EMAIL), 'nowhere in the request')

  const events = await node.store.eventsAfter(RUNNER_TENANT, task.task_id, 0, 200)
  const replanned = events.find((e) => e.type === 'task.replanned')
  t.equal((replanned?.data as { reason?: string } | undefined)?.reason, refusal.message, 'the stored reason is the client’s own')
})
