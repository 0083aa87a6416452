// The heuristic planner: parallel work steps, a judge when there are acceptance criteria, a
// guardian last; allowed_arms respected; the goal redacted; the same goal, the same plan.
import t from 'tap'
import type { StoredTask } from '../../../src/stores/task.js'
import { planSteps, planTask } from '../../fixtures/heuristic-planner.js'
import { testDetector } from '../../fixtures/runner-node.js'

const base = { goal: 'do it', suggestedArms: [] as string[], allowedArms: null, acceptanceCriteria: [] as string[] }

t.test('runs independent work in parallel and the guardian after it', async (t) => {
  const steps = planSteps({ ...base, suggestedArms: ['retriever', 'coder', 'executor', 'guardian'] })
  t.same(
    steps.map((s) => [s.step_id, s.arm, s.depends_on]),
    [
      ['s1', 'retriever', []],
      ['s2', 'coder', []],
      ['s3', 'executor', ['s2']],
      ['s4', 'guardian', ['s1', 's3']],
    ],
  )
  t.ok(
    steps.every((s) => /^[A-Z][^.]*[.:]/.test(s.action)),
    'actions are short imperative sentences',
  )
})

t.test('adds a judge when there are acceptance criteria', async (t) => {
  const steps = planSteps({ ...base, suggestedArms: ['retriever'], acceptanceCriteria: ['cites two sources'] })
  t.same(
    steps.map((s) => [s.arm, s.depends_on]),
    [
      ['retriever', []],
      ['judge', ['s1']],
      ['guardian', ['s2']],
    ],
  )
})

t.test('falls back to the executor and respects allowed_arms', async (t) => {
  t.same(
    planSteps(base).map((s) => s.arm),
    ['executor', 'guardian'],
  )
  t.same(
    planSteps({ ...base, suggestedArms: ['retriever', 'coder'], allowedArms: ['coder'] }).map((s) => s.arm),
    ['coder', 'guardian'],
    "the guardian stays: it is the system's, not an arm to opt out of",
  )
  t.same(
    planSteps({ ...base, acceptanceCriteria: ['x'], allowedArms: ['retriever'] }).map((s) => s.arm),
    ['retriever', 'guardian'],
    'no judge unless allowed',
  )
})

t.test('plans a stored task from its redacted goal, deterministically', async (t) => {
  const task = {
    goal: 'Search the docs for pgvector and write a script; mail ada@example.com',
    constraints: { allowed_arms: ['retriever', 'coder', 'guardian'] },
    acceptance_criteria: [],
  } as unknown as StoredTask
  const first = planTask(task, testDetector())
  t.notMatch(first.goal, /ada@example\.com/)
  t.ok(
    first.steps.every((s) => !s.action.includes('ada@example.com')),
    'no personal data in the plan',
  )
  t.same(
    first.steps.map((s) => s.arm),
    ['retriever', 'coder', 'guardian'],
  )
  t.same(planTask(task, testDetector()), first, 'the same goal gives the same plan')
  const listed = { ...task, constraints: ['be brief'] } as unknown as StoredTask
  t.same(
    planTask(listed, testDetector()).steps.map((s) => s.arm),
    ['retriever', 'coder', 'guardian'],
    'natural-language constraints restrict no arms',
  )
})
