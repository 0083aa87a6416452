// A registered arm is in the model's tool table with its own input schema; the model writes its
// step's input as JSON text (strict structured output cannot carry the arm's schema), which is
// parsed and checked against that schema like any built-in input. The heuristic plans built-in
// arms only.
import t from 'tap'

import type { ExternalArm } from '../../../src/arms/planner/external-arms.js'
import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { outline, plan } from './planner-fixture.js'

const fixture = (name: string) => `../../arms/planner/fixtures/${name}.json`

const translator: ExternalArm = {
  name: 'translator',
  description: 'Translates text between languages.',
  tools: ['translate'],
  input_schema: {
    type: 'object',
    properties: { text: { type: 'string', minLength: 1 }, to: { type: 'string', enum: ['en', 'fr', 'de'] } },
    required: ['text', 'to'],
    additionalProperties: false,
  },
}

t.test("the model plans a registered arm's step; its input is parsed and checked by the arm's schema", async (t) => {
  const { url, requests } = await replayServer(t, { fixture: fixture('plan-registered-arm') })
  const { output, stored } = await plan('Translate this note into English: Bonjour à tous', {
    llm: new OpenAiProvider({ baseUrl: url }),
    external_arms: [translator],
  })
  t.equal(output.source, 'model')
  t.same(outline(output), ['s1 translator.translate', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { text: 'Bonjour à tous', to: 'en' }, 'the JSON text, parsed')
  t.same(
    stored.map((s) => s.arm),
    ['translator', 'guardian'],
    "the orchestrator's check takes it",
  )

  const body = requests[0]!.body!
  const [system] = body.messages as Array<{ role: string; content: string }>
  t.match(system!.content, /Registered arms/)
  t.match(
    system!.content,
    /- translator\.translate input \{"type":"object".*"enum":\["en","fr","de"\].*: Translates text between languages\./,
  )
  const schema = (
    body.response_format as {
      json_schema: { schema: { properties: { steps: { items: { properties: Record<string, { enum?: string[]; anyOf?: unknown[] }> } } } } }
    }
  ).json_schema.schema.properties.steps.items.properties
  t.ok(schema.arm!.enum!.includes('translator'))
  t.ok(schema.tool!.enum!.includes('translate'))
  t.ok(
    schema.input!.anyOf!.some((branch) => JSON.stringify(branch).includes('"json"')),
    'one input branch is the JSON text',
  )
})

t.test("input the arm's schema refuses, or text that is not JSON, is refused with why: the rule planner cannot translate", async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['plan-registered-arm-bad-input', /bad input for translator\.translate/],
    ['plan-registered-arm-not-json', /does not parse/],
  ]
  for (const [name, why] of cases) {
    const { url } = await replayServer(t, { fixture: fixture(name) })
    // The rule planner reads no work in the goal: its plan would only search the knowledge base
    // for it, so the model's bad plan is the call's failure rather than a fallback.
    await t.rejects(
      plan('Translate this note into English: Bonjour', { llm: new OpenAiProvider({ baseUrl: url }), external_arms: [translator] }),
      { code: 'PLAN_INVALID', message: why },
      name,
    )
  }
})

t.test('allowed_arms that leave the registered arm out keep it out of the schema', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: fixture('plan-valid') })
  await plan('What caused the March outage?', {
    llm: new OpenAiProvider({ baseUrl: url }),
    external_arms: [translator],
    constraints: { allowed_arms: ['retriever', 'judge'] },
  })
  const body = requests[0]!.body!
  t.notMatch(JSON.stringify(body.response_format), /translator/)
  t.notMatch((body.messages as Array<{ content: string }>)[0]!.content, /translator/)
})

t.test('a bad model plan for a goal the rules can do falls back to them and says why', async (t) => {
  const { url } = await replayServer(t, { fixture: fixture('plan-registered-arm-bad-input') })
  const { output, events } = await plan('Translate this note into English: Bonjour. Then count the words of: Bonjour', {
    llm: new OpenAiProvider({ baseUrl: url }),
    external_arms: [translator],
  })
  t.equal(output.source, 'heuristic_fallback')
  t.notOk(
    output.steps.some((s) => s.arm === 'translator'),
    'the heuristic does not plan the registered arm',
  )
  t.match(events.find((e) => e.type === 'planner.fallback')?.data, { code: 'PLAN_INVALID', message: /bad input for translator\.translate/ })
})

t.test('without a model the registered arms are not planned', async (t) => {
  const { output } = await plan('Translate this note into English: Bonjour. Then count the words of: Bonjour', {
    external_arms: [translator],
  })
  t.equal(output.source, 'heuristic')
  t.notOk(output.steps.some((s) => s.arm === 'translator'))
  await t.rejects(plan('Translate this note into English: Bonjour', { external_arms: [translator] }), { code: 'MODEL_REQUIRED' })
})

t.test('external_arms that are malformed or shadow a built-in arm are INPUT_INVALID', async (t) => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['not a list', { translator }, /^input\.external_arms: /],
    ['no tools', [{ ...translator, tools: [] }], /^input\.external_arms\.0\.tools: /],
    ['a bad name', [{ ...translator, name: 'Trans Lator' }], /^input\.external_arms\.0\.name: /],
    ['a built-in name', [{ ...translator, name: 'executor' }], /built-in arm executor/],
  ]
  for (const [what, external, message] of bad) {
    await t.rejects(plan('Translate: Bonjour', { external_arms: external as ExternalArm[] }), { code: 'INPUT_INVALID', message }, what)
  }
})
