// A number the task computed itself reaches its answer even when it has the shape of personal data
// (the 62nd Fibonacci number passes the Luhn check with a Visa prefix), while personal data that
// came in with the task is still redacted from the answer. The whole service on the offline model,
// over PGlite and over PostgreSQL; with REFLEX_PII_THRESHOLD=0 (every match reported, the bare
// number included) the runner's `keep` is what leaves the computed number in.
import t, { type Test } from 'tap'
import { freshDatabase, SKIP_PG } from '../stores/pg-schema.js'
import { armsOf, runTask, startGanglion } from './e2e-fixture.js'

t.setTimeout(300_000)

const FIB62 = 4052739537881

async function scenarios(t: Test, base: string, strict: boolean): Promise<void> {
  const computed = await runTask(base, { goal: 'Compute the 62nd Fibonacci number in JavaScript' })
  t.equal(computed.status, 'completed', JSON.stringify(computed.error))
  t.same(armsOf(computed), ['coder/generate', 'executor/javascript', 'guardian/scrub'])
  t.equal(computed.result.answer, FIB62, 'the answer is the number, not [CREDIT_CARD_1]')

  // The same number, once it came in with the task (here in its context, written in groups), is
  // redacted from the answer although the task computed it too. At the default threshold the bare
  // number in the answer is not reported at all, so this only holds where it would be.
  if (!strict) return
  const given = await runTask(base, {
    goal: 'Compute the 62nd Fibonacci number in JavaScript',
    context: { customer: { card_on_file: '4052 7395 3788 1' } },
  })
  t.equal(given.status, 'completed', JSON.stringify(given.error))
  t.equal(given.result.answer, '[CREDIT_CARD_1]', 'a number that came in is always redacted')
  t.notMatch(JSON.stringify(given.result.final), String(FIB62))
}

async function cardScenario(t: Test, base: string): Promise<void> {
  const card = await runTask(base, { goal: 'Redact the personal data in: paid with card 4111 1111 1111 1111 today.' })
  t.equal(card.status, 'completed', JSON.stringify(card.error))
  t.match(card.result.answer, /card \[CREDIT_CARD_1\] today/, 'a card in the input is redacted')
  t.notMatch(JSON.stringify(card.result), '4111 1111 1111 1111')
}

t.test('on PGlite', async (t) => {
  const base = await startGanglion(t)
  await scenarios(t, base, false)
  await cardScenario(t, base)
})

t.test('on PGlite, every match reported', async (t) => {
  await scenarios(t, await startGanglion(t, { REFLEX_PII_THRESHOLD: '0' }), true)
})

t.test('on PostgreSQL', { skip: SKIP_PG }, async (t) => {
  const base = await startGanglion(t, { DATABASE_URL: await freshDatabase(t, 'ganglion_computed'), REFLEX_PII_THRESHOLD: '0' })
  await scenarios(t, base, true)
  await cardScenario(t, base)
})
