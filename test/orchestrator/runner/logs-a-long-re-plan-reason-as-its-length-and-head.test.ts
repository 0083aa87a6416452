// The re-plan's log line carries the reason's length and a short redacted head, not the reason:
// a judge quoting a long output makes the reason megabytes, and its head may hold personal data.
import t from 'tap'
import { createLogger } from '../../../src/log.js'
import { LOG_HEAD_CHARS, reasonForLog } from '../../../src/orchestrator/runner/replan-reason.js'
import type { NewStep } from '../../../src/stores/task-store.js'
import { DelayStepRunner, StepError } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { testDetector, waitFinal } from '../../fixtures/runner-node.js'

const plan: NewStep[] = [
  { step_id: 's1', arm: 'executor', action: 'work' },
  { step_id: 's2', arm: 'judge', action: 'check', depends_on: ['s1'] },
]
const head = '1 of 1 checks failed: "says 42" (deterministic): is "mail ada@example.com, then '
const reason = `${head}${'x'.repeat(1024 * 1024 - head.length)}`

onEachDatabase('logs a long re-plan reason as its length and head', async (t, db) => {
  const lines: string[] = []
  const log = createLogger({ name: 'test', level: 'DEBUG', destination: { write: (line: string) => void lines.push(line) } })
  const steps = new DelayStepRunner({
    delayMs: 5,
    fail: (step) => (step.step_id === 's2' ? new StepError('VALIDATION_FAILED', reason, false) : undefined),
  })
  const node = await db.node({ steps, log, planner: async () => plan })

  const task = await waitFinal(node.store, (await node.submit({ goal: 'answer 42' })).task_id, 30_000)
  t.equal(task.status, 'completed', 'the re-plan ran')
  const line = lines.find((l) => l.includes('task re-planned after a failed validation'))
  t.ok(line, 'the re-plan was logged')
  t.ok(line!.length < 1000, `a ${line!.length}-character line for a ${reason.length}-character reason`)
  const logged = JSON.parse(line!) as { reason?: unknown; reason_chars?: number; reason_head?: string; task_id?: string }
  t.equal(logged.task_id, task.task_id)
  t.equal(logged.reason, undefined, 'not the reason itself')
  t.equal(logged.reason_chars, reason.length, 'its length')
  t.match(
    logged.reason_head,
    /^1 of 1 checks failed: "says 42" \(deterministic\): is "mail \[EMAIL_1\], then x+…$/,
    'its head, redacted, marked as cut',
  )
  t.ok(logged.reason_head!.length <= 201, `${logged.reason_head!.length} characters of it`)
  t.notOk(line!.includes('ada@example.com'), 'the line does not hold the address')
})

t.test('the head: whole when short, never half a card number when cut', async (t) => {
  const detector = testDetector()
  t.same(reasonForLog(detector, 'output lacks "42"'), { reason_chars: 17, reason_head: 'output lacks "42"' })
  const item = 'card 4111 1111 1111 1111; '
  for (let lead = 0; lead < item.length; lead++) {
    const reason = `${'x'.repeat(lead)}${item.repeat(20)}`
    const { reason_chars, reason_head } = reasonForLog(detector, reason)
    t.equal(reason_chars, reason.length)
    t.ok(reason_head.length <= LOG_HEAD_CHARS + 1 && reason_head.endsWith('…'), `${reason_head.length} characters, marked as cut`)
    t.notMatch(reason_head.replace(/\[CREDIT_CARD_\d+\]/g, ''), /\d/, `no digit of a card left (lead ${lead})`)
  }
})
