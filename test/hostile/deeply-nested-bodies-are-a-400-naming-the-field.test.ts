// Bodies nested thousands of levels deep (`context`, `metadata`, a cache value) answered 500: the
// depth is now counted over the bytes before parsing, one limit for every JSON body, and passing
// it is a 400 naming where it was passed. Nothing of the body is stored.
import { MAX_JSON_DEPTH } from '../../src/http/body.js'
import { nestedArrays, nestedObjects, onEachBackend, postRaw, refusal } from './services.js'

const TOO_DEEP = { status: 400, code: 'VALIDATION_ERROR', constraint: `must nest at most ${MAX_JSON_DEPTH} levels` }

onEachBackend('a body nested past the limit is a 400 naming the field', async (t, { orchestrator, reflex }) => {
  const tasks = `${orchestrator}/api/v1/tasks`

  // The 65th object opens inside `context` and 63 `a`s (the body is the first level).
  const context = await postRaw(tasks, `{"goal":"ok","context":${nestedObjects(4100)}}`)
  t.same(await refusal(context), { ...TOO_DEEP, field: `context${'.a'.repeat(63)}` }, 'context, 4,100 objects deep')

  const metadata = await postRaw(tasks, `{"goal":"ok","metadata":{"k":${nestedArrays(4100)}}}`)
  t.same(await refusal(metadata), { ...TOO_DEEP, field: `metadata.k${'[0]'.repeat(62)}` }, 'metadata, 4,100 arrays deep')

  const second = await postRaw(tasks, `{"goal":"ok","acceptance_criteria":["x",${nestedArrays(100)}]}`)
  t.same(await refusal(second), { ...TOO_DEEP, field: `acceptance_criteria[1]${'[0]'.repeat(62)}` }, 'array indexes are counted')

  const listed = (await (await fetch(tasks)).json()) as { pagination: { total_items: number } }
  t.equal(listed.pagination.total_items, 0, 'no task was created')

  const atLimit = await postRaw(tasks, `{"goal":"ok","metadata":${nestedObjects(MAX_JSON_DEPTH - 1)}}`)
  t.equal(atLimit.status, 201, `${MAX_JSON_DEPTH} levels, the body counted, are taken`)
  const overLimit = await postRaw(tasks, `{"goal":"ok","metadata":${nestedObjects(MAX_JSON_DEPTH)}}`)
  t.same(await refusal(overLimit), { ...TOO_DEEP, field: `metadata${'.a'.repeat(MAX_JSON_DEPTH - 1)}` }, 'one more is not')

  const brackets = await postRaw(tasks, JSON.stringify({ goal: `Count the brackets in ${'[{'.repeat(200)} \\" ]` }))
  t.equal(brackets.status, 201, 'brackets inside strings are text, not nesting')

  const cache = await postRaw(`${reflex}/api/v1/cache`, `{"key":"deep","value":${nestedArrays(4100)}}`)
  t.same(await refusal(cache), { ...TOO_DEEP, field: `value${'[0]'.repeat(63)}` }, 'a cache value')
  t.equal((await fetch(`${reflex}/api/v1/cache/deep`)).status, 404, 'nothing was cached')

  const check = await postRaw(`${reflex}/api/v1/check`, `{"text":"hello","x":${nestedArrays(4100)}}`)
  t.same(await refusal(check), { ...TOO_DEEP, field: `x${'[0]'.repeat(63)}` }, 'the check route counts too')

  const whole = await postRaw(`${reflex}/api/v1/cache`, nestedArrays(4100))
  t.same(await refusal(whole), { ...TOO_DEEP, field: '[0]'.repeat(64) }, 'a body that is only arrays')

  t.equal((await fetch(`${orchestrator}/api/v1/health`)).status, 200, 'the orchestrator still answers')
  t.equal((await fetch(`${reflex}/api/v1/health`)).status, 200, 'the reflex layer still answers')
})
