// A completed goal-only task leaves its answer in the cache for the same goal of its tenant. When
// its submitter deletes the task, that answer goes too: the next task of the goal is worked again,
// not answered from what was deleted.
import { nonce, onEachBackend, submit, waitFinal } from './tenants-fixture.js'

onEachBackend('deleting a task drops the answer it left in the cache', async (t, service) => {
  const member = service.as('tenant-a-member')
  const word = `zq${nonce()}`
  const ingest = await member.post('/api/v1/knowledge', {
    documents: [{ title: 'Runbook', text: `Restart the ${word} worker after a deploy.` }],
  })
  t.equal(ingest.status, 201)
  const goal = `Search the knowledge base for the ${word} worker`

  const first = await waitFinal(member, (await submit(member, { goal })).task_id)
  t.equal(first.status, 'completed', JSON.stringify(first.error))
  const replay = await submit(member, { goal })
  t.equal(replay.cached, true, 'the same goal is answered from the cache')

  t.equal((await member.delete(`/api/v1/tasks/${first.task_id}/record`)).status, 204, 'the submitter deletes the first task')
  const after = await submit(member, { goal })
  t.equal(after.cached, false, 'the same goal is worked again: the deleted answer is not served')
  t.equal((await waitFinal(member, after.task_id)).status, 'completed')
})
