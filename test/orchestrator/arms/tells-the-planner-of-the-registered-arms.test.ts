// The planner arm is told of the registered (external) arms, the first ones by name, and a plan
// with a step for one of them is stored with that step's arm and tool, ready to be routed.

import { randomUUID } from 'node:crypto'
import { Detector } from '@ganglion/reflex'
import t from 'tap'
import type { ArmCapability } from '../../../src/arms/contract.js'
import { MAX_EXTERNAL_ARMS } from '../../../src/arms/planner/external-arms.js'
import { armPlanner } from '../../../src/orchestrator/runner/arm-planner.js'
import { openSql } from '../../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../../src/stores/sql-task-store.js'
import { scriptedArms } from './arm-call-fixture.js'

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())
const store = new SqlTaskStore(sql)

const capability = (name: string): ArmCapability => ({
  arm_id: name,
  name,
  description: `The ${name} arm.`,
  capabilities: ['run'],
  cost_tier: 'low',
  endpoint: `http://10.0.0.7/${name}`,
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  output_schema: {},
})

t.test('external_arms carries each registered arm; a plan that uses one is stored', async (t) => {
  const { task } = await store.create({ task_id: randomUUID(), tenant: 'arm-calls', goal: 'Translate: Bonjour' })
  const arms = scriptedArms(store, {
    planner: () => ({
      status: 'completed',
      events: [],
      output: {
        source: 'model',
        similar_tasks: [],
        steps: [
          { step_id: 's1', arm: 'translator', tool: 'run', action: 'Translate.', depends_on: [], input: { text: 'Bonjour' } },
          { step_id: 's2', arm: 'guardian', tool: 'scrub', action: 'Scrub.', depends_on: ['s1'], input: {} },
        ],
      },
    }),
    guardian: () => ({ status: 'completed', events: [], output: {} }),
  })
  const registered = ['translator', ...Array.from({ length: MAX_EXTERNAL_ARMS + 2 }, (_, i) => `zz-arm-${String(i).padStart(2, '0')}`)].map(
    (name) => ({ name, capability: capability(name) }),
  )
  const lookup = {
    get: (name: string) =>
      arms.deps.arms.get(name) ?? (registered.some((r) => r.name === name) ? arms.deps.arms.get('guardian') : undefined),
    registered: () => registered,
  }
  const steps = await armPlanner({ ...arms.deps, arms: lookup, detector: new Detector() })(task)

  const sent = arms.requests[0]!.input as { external_arms: Array<Record<string, unknown>> }
  t.equal(sent.external_arms.length, MAX_EXTERNAL_ARMS, 'the first ones by name, as many as the planner takes')
  t.same(sent.external_arms[0], {
    name: 'translator',
    description: 'The translator arm.',
    tools: ['run'],
    input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  t.same(
    steps.map((s) => `${s.arm}.${s.tool}`),
    ['translator.run', 'guardian.scrub'],
  )
})

t.test('without registered arms the list is empty', async (t) => {
  const { task } = await store.create({ task_id: randomUUID(), tenant: 'arm-calls', goal: 'Count: a b' })
  const arms = scriptedArms(store, {
    planner: () => ({
      status: 'completed',
      events: [],
      output: { steps: [{ step_id: 's1', arm: 'guardian', tool: 'scrub', action: 'Scrub.', depends_on: [], input: {} }] },
    }),
    guardian: () => ({ status: 'completed', events: [], output: {} }),
  })
  await armPlanner({ ...arms.deps, detector: new Detector() })(task)
  t.same((arms.requests[0]!.input as { external_arms: unknown[] }).external_arms, [])
})
