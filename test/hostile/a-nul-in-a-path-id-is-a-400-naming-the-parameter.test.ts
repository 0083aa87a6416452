// `/api/v1/tasks/a%00b` answered 500: the decoded id reached PostgreSQL, which refuses a NUL in
// text. A path parameter that decodes to a NUL is now a 400 naming it, on every route with an id;
// an escape that decodes to no text at all (a lone surrogate's bytes) was already one.
import { NUL_CONSTRAINT } from '../../src/http/storable-text.js'
import { onEachBackend, refusal } from './services.js'

onEachBackend('a path id holding a NUL is a 400 naming the parameter', async (t, { orchestrator, reflex }) => {
  const cases: Array<[method: string, url: string, field: string]> = [
    ['GET', `${orchestrator}/api/v1/tasks/a%00b`, 'task_id'],
    ['GET', `${orchestrator}/task/a%00b`, 'task_id'],
    ['DELETE', `${orchestrator}/api/v1/tasks/a%00b`, 'task_id'],
    ['POST', `${orchestrator}/api/v1/tasks/a%00b/cancel`, 'task_id'],
    ['POST', `${orchestrator}/task/a%00b/cancel`, 'task_id'],
    ['GET', `${orchestrator}/api/v1/tasks/a%00b/events`, 'task_id'],
    ['GET', `${orchestrator}/api/v1/knowledge/a%00b`, 'document_id'],
    ['DELETE', `${orchestrator}/api/v1/knowledge/a%00b`, 'document_id'],
    ['GET', `${orchestrator}/api/v1/api-keys/a%00b`, 'id'],
    ['DELETE', `${orchestrator}/api/v1/api-keys/a%00b`, 'id'],
    ['GET', `${reflex}/api/v1/cache/a%00b`, 'key'],
    ['GET', `${reflex}/cache/a%00b`, 'key'],
    ['DELETE', `${reflex}/api/v1/cache/a%00b`, 'key'],
  ]
  for (const [method, url, field] of cases) {
    const res = await fetch(url, { method })
    t.same(await refusal(res), { status: 400, code: 'VALIDATION_ERROR', field, constraint: NUL_CONSTRAINT }, `${method} ${url}`)
  }
  const lone = await fetch(`${orchestrator}/api/v1/tasks/a%ED%A0%80b`)
  t.same(
    await refusal(lone),
    { status: 400, code: 'VALIDATION_ERROR', field: 'task_id', constraint: 'must be a valid percent-encoded path segment' },
    'the UTF-8 bytes of a lone surrogate',
  )
  t.equal((await fetch(`${orchestrator}/api/v1/health`)).status, 200, 'the orchestrator still answers')
})
