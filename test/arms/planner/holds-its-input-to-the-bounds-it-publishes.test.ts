// The bounds the planner publishes in its input_schema are the ones it enforces: a caller that sends
// a longer previous_failure or more or longer acceptance criteria gets INPUT_INVALID naming the
// field and the bound, and nothing reaches a model prompt. Input at the bounds is planned.
import t from 'tap'
import { createPlannerArm } from '../../../src/arms/planner/planner-arm.js'
import { MAX_CRITERIA, MAX_CRITERION_CHARS, MAX_PREVIOUS_FAILURE_CHARS } from '../../../src/arms/planner/planner-input.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import type { Llm } from '../../../src/llm/provider.js'
import { makeHost, request, tokenFor } from '../host/servers.js'
import { plan } from './planner-fixture.js'

const goal = 'Count the lines of: a\nb'

/** A reasoning model that must not be asked: the input is refused before any prompt is written. */
const unaskable: Llm = {
  provider: 'openai',
  model: 'unaskable',
  reasoning: true,
  complete: () => Promise.reject(new Error('the model was asked')),
  stream: () => {
    throw new Error('the model was asked')
  },
}

t.test('over the bounds: INPUT_INVALID naming the field and the bound', async (t) => {
  const bad: Array<[string, Parameters<typeof plan>[1], string]> = [
    [
      'a previous failure one character too long',
      { previous_failure: 'x'.repeat(MAX_PREVIOUS_FAILURE_CHARS + 1) },
      `input.previous_failure: must not have more than ${MAX_PREVIOUS_FAILURE_CHARS} characters`,
    ],
    [
      'a 5 MB previous failure',
      { previous_failure: 'x'.repeat(5_000_000) },
      `input.previous_failure: must not have more than ${MAX_PREVIOUS_FAILURE_CHARS} characters`,
    ],
    [
      'one criterion too many',
      { acceptance_criteria: Array.from({ length: MAX_CRITERIA + 1 }, (_, i) => `criterion ${i}`) },
      `input.acceptance_criteria: must not have more than ${MAX_CRITERIA} items`,
    ],
    [
      '10,000 criteria',
      { acceptance_criteria: Array.from({ length: 10_000 }, () => 'c') },
      `input.acceptance_criteria: must not have more than ${MAX_CRITERIA} items`,
    ],
    [
      'a criterion one character too long',
      { acceptance_criteria: ['short', 'y'.repeat(MAX_CRITERION_CHARS + 1)] },
      `input.acceptance_criteria.1: must not have more than ${MAX_CRITERION_CHARS} characters`,
    ],
  ]
  for (const [what, opts, message] of bad) {
    await t.rejects(plan(goal, { ...opts, llm: unaskable }), { name: 'ArmError', code: 'INPUT_INVALID', message }, what)
  }
})

t.test('at the bounds the input is planned', async (t) => {
  const { output } = await plan(goal, {
    previous_failure: 'x'.repeat(MAX_PREVIOUS_FAILURE_CHARS),
    acceptance_criteria: Array.from({ length: MAX_CRITERIA }, (_, i) => `${i}`.padEnd(MAX_CRITERION_CHARS, '.')),
  })
  t.equal(output.source, 'heuristic')
  t.ok(
    output.steps.some((s) => s.arm === 'judge'),
    'the criteria were read',
  )
})

t.test('lengths are counted in characters (code points), as JSON Schema counts them', async (t) => {
  // Each emoji is two UTF-16 units: twice the bound in `.length`, exactly the bound in characters.
  const failure = '😀'.repeat(MAX_PREVIOUS_FAILURE_CHARS)
  t.equal(failure.length, 2 * MAX_PREVIOUS_FAILURE_CHARS)
  const { output } = await plan(goal, { previous_failure: failure })
  t.equal(output.source, 'heuristic')
  await t.rejects(plan(goal, { previous_failure: `${failure}😀` }), { code: 'INPUT_INVALID' })
})

t.test('the published input_schema carries the same bounds', async (t) => {
  const schema = createPlannerArm().capability.input_schema as {
    properties: { previous_failure: { maxLength: number }; acceptance_criteria: { maxItems: number; items: { maxLength: number } } }
  }
  t.equal(schema.properties.previous_failure.maxLength, MAX_PREVIOUS_FAILURE_CHARS)
  t.equal(schema.properties.acceptance_criteria.maxItems, MAX_CRITERIA)
  t.equal(schema.properties.acceptance_criteria.items.maxLength, MAX_CRITERION_CHARS)
})

t.test('through the arm host the refusal is a failed step with the code and the message, not retryable', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const host = makeHost(createPlannerArm(), issuer.localVerifier())
  const body = request({ tool: 'plan', goal, input: { previous_failure: 'x'.repeat(MAX_PREVIOUS_FAILURE_CHARS + 1) } })
  const response = await host.execute(body, await tokenFor(issuer, 'plan', 'planner'), new AbortController().signal)
  t.match(response, {
    status: 'failed',
    error: {
      code: 'INPUT_INVALID',
      message: `input.previous_failure: must not have more than ${MAX_PREVIOUS_FAILURE_CHARS} characters`,
      retryable: false,
    },
  })
})
