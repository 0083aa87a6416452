// A task's knowledge-base search (the retriever arm) runs over its own tenant's documents only:
// the orchestrator signs the task's tenant into the arm's capability token and the retriever
// searches that tenant. Before tenants a task of b searched, summarised and answered from a's
// documents.
import { nonce, onEachBackend, submit, waitFinal } from './tenants-fixture.js'

onEachBackend("a task searches only its own tenant's knowledge", async (t, service) => {
  const a = service.as('tenant-a-member')
  const b = service.as('tenant-b-member')
  const word = `zq${nonce()}`
  const secret = `The ${word} acquisition price is forty million; the board meets on Monday.`
  t.equal((await a.post('/api/v1/knowledge', { documents: [{ title: 'Acquisition', text: secret }] })).status, 201)

  // Two goals, not one: a goal-only task may be answered from the result cache, which is not what is under test here.
  const ask = async (client: typeof a, goal: string) => {
    const task = await waitFinal(client, (await submit(client, { goal })).task_id)
    t.equal(task.status, 'completed', JSON.stringify(task.error))
    return task
  }
  const theirs = await ask(b, `Search the knowledge base for the ${word} acquisition price and the board meeting`)
  const search = theirs.plan.steps.find((s: { arm: string; tool: string }) => s.arm === 'retriever' && s.tool === 'search')
  t.ok(search, "b's task searched the knowledge base")
  t.same(search.output.hits, [], "and found nothing of a's")
  t.notMatch(JSON.stringify(theirs), /forty million/, "no word of a's document in b's task")

  const ours = await ask(a, `Search the knowledge base for the ${word} acquisition price`)
  t.match(JSON.stringify(ours.result), /forty million/, "a's own task finds it")
})
