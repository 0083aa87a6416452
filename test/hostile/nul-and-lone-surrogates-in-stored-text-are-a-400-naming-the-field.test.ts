// A NUL (`\u0000`) in any task field stored as JSON, or a lone surrogate in a goal, answered 500:
// PostgreSQL's text and jsonb refuse the one, UTF-8 has no form for the other. Every route that
// stores what it is sent now refuses both, in values and keys, with a 400 naming the field; the
// screening routes store nothing and take them as sent.
import { NUL_CONSTRAINT, SURROGATE_CONSTRAINT } from '../../src/http/storable-text.js'
import { onEachBackend, postRaw, refusal } from './services.js'

const NUL = { status: 400, code: 'VALIDATION_ERROR', constraint: NUL_CONSTRAINT }
const LONE = { status: 400, code: 'VALIDATION_ERROR', constraint: SURROGATE_CONSTRAINT }

onEachBackend('a task with a NUL or a lone surrogate is a 400 naming the field', async (t, { orchestrator }) => {
  const tasks = `${orchestrator}/api/v1/tasks`
  t.same(await refusal(await postRaw(tasks, '{"goal":"ok","metadata":{"k":"\\u0000"}}')), { ...NUL, field: 'metadata.k' }, 'metadata value')
  t.same(await refusal(await postRaw(tasks, '{"goal":"a\\ud800b"}')), { ...LONE, field: 'goal' }, 'a high surrogate alone')
  t.same(
    await refusal(await postRaw(tasks, '{"goal":"ok","acceptance_criteria":["fine","\\udc00 first"]}')),
    { ...LONE, field: 'acceptance_criteria[1]' },
    'a low surrogate with no high one before it',
  )
  t.same(await refusal(await postRaw(tasks, '{"goal":"ok","context":{"a\\u0000":"v"}}')), { ...NUL, field: 'context.a\u0000' }, 'a key')
  t.same(await refusal(await postRaw(tasks, '{"goal":"ok","context":"x\\u0000"}')), { ...NUL, field: 'context' }, 'context as text')
  t.same(await refusal(await postRaw(`${orchestrator}/task`, '{"goal":"\\u0000"}')), { ...NUL, field: 'goal' }, 'the variant route')

  const list = async () => ((await (await fetch(tasks)).json()) as { pagination: { total_items: number } }).pagination.total_items
  t.equal(await list(), 0, 'no task was created')

  const pair = await postRaw(tasks, '{"goal":"Describe \\ud83d\\ude00 and é","metadata":{"k":"\\u0001"}}')
  t.equal(pair.status, 201, 'a surrogate pair and other control characters are text like any other')
  const created = (await pair.json()) as { task_id: string }
  const read = (await (await fetch(`${tasks}/${created.task_id}`)).json()) as { goal: string }
  t.equal(read.goal, 'Describe 😀 and é', 'and read back as sent')
})

onEachBackend('a knowledge document or search with a NUL or a lone surrogate is a 400 naming the field', async (t, { orchestrator }) => {
  const knowledge = `${orchestrator}/api/v1/knowledge`
  t.same(await refusal(await postRaw(knowledge, '{"documents":[{"text":"a\\u0000b"}]}')), { ...NUL, field: 'documents[0].text' }, 'text')
  t.same(
    await refusal(await postRaw(knowledge, '{"documents":[{"text":"fine"},{"text":"fine","metadata":{"k":["\\ud800"]}}]}')),
    { ...LONE, field: 'documents[1].metadata.k[0]' },
    'metadata',
  )
  t.same(await refusal(await postRaw(`${knowledge}/search`, '{"query":"a\\u0000"}')), { ...NUL, field: 'query' }, 'a search query')
  const listed = (await (await fetch(knowledge)).json()) as { pagination: { total_items: number } }
  t.equal(listed.pagination.total_items, 0, 'no document was stored')
})

onEachBackend('a cache entry with a NUL or a lone surrogate is a 400 naming the field', async (t, { reflex }) => {
  const cache = `${reflex}/api/v1/cache`
  t.same(await refusal(await postRaw(cache, '{"key":"k","value":{"a":"\\u0000"}}')), { ...NUL, field: 'value.a' }, 'a value')
  t.same(await refusal(await postRaw(cache, '{"key":"k\\udfff","value":1}')), { ...LONE, field: 'key' }, 'a key')
  t.equal((await fetch(`${cache}/k`)).status, 404, 'nothing was cached')
})

onEachBackend('the screening routes take NUL and lone surrogates as sent', async (t, { reflex }) => {
  for (const path of ['/api/v1/check', '/process', '/preprocess', '/filter/pii']) {
    const res = await postRaw(`${reflex}${path}`, '{"text":"mail ada@example.com \\u0000 \\ud800 \\udc00"}')
    t.equal(res.status, 200, `${path} answers`)
    const body = (await res.json()) as { pii_detected: boolean }
    t.equal(body.pii_detected, true, `${path} screened the text`)
  }
})
