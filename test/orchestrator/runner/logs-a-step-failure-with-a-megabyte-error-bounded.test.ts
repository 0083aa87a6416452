import { createLogger } from '../../../src/log.js'
import { MAX_FIELD_CHARS, MAX_LINE_CHARS } from '../../../src/log-bound.js'
import type { NewStep } from '../../../src/stores/task-store.js'
import { DelayStepRunner, StepError } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { testDetector, waitFinal } from '../../fixtures/runner-node.js'

const plan: NewStep[] = [{ step_id: 's1', arm: 'executor', action: 'work' }]
const head = 'arm refused: "mail ada@example.com, then '
const message = `${head}${'x'.repeat(1024 * 1024 - head.length)}`

onEachDatabase('logs a step failure with a megabyte error bounded', async (t, db) => {
  const detector = testDetector()
  const lines: string[] = []
  const log = createLogger({
    name: 'test',
    level: 'DEBUG',
    redactor: { redact: (line) => detector.redact(line).redacted_text, find: (text) => detector.redact(text).pii_matches },
    destination: { write: (line: string) => void lines.push(line) },
  })
  // The first attempt fails retryably, the second for good: both lines carry the error.
  const steps = new DelayStepRunner({ delayMs: 5, fail: (_step, attempt) => new StepError('ARM_ERROR', message, attempt < 2) })
  const node = await db.node({ steps, log, planner: async () => plan })

  const task = await waitFinal(node.store, (await node.submit({ goal: 'answer 42' })).task_id, 30_000)
  t.equal(task.status, 'failed')
  for (const msg of ['step attempt failed; retrying', 'step failed']) {
    const line = lines.find((l) => l.includes(`"msg":"${msg}"`))
    t.ok(line, `'${msg}' was logged`)
    t.ok(line!.length <= MAX_LINE_CHARS, `a ${line!.length}-character line for a ${message.length}-character error`)
    const logged = JSON.parse(line!) as { task_id?: string; step_id?: string; error?: { code?: string; message?: string } }
    t.equal(logged.task_id, task.task_id)
    t.equal(logged.step_id, 's1')
    t.equal(logged.error?.code, 'ARM_ERROR')
    t.match(
      logged.error?.message,
      /^arm refused: "mail \[EMAIL_1\], then x+ \[…\d+ characters cut…\]$/,
      'its head, redacted, and the marker',
    )
    t.ok(logged.error!.message!.length <= MAX_FIELD_CHARS, `${logged.error!.message!.length} characters of it`)
    t.notOk(line!.includes('ada@example.com'), 'the line does not hold the address')
  }
})
