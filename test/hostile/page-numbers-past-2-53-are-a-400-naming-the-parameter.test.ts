// Page numbers are integers JavaScript holds exactly: up to 2^53 - 1, as openapi.yaml says. A
// larger one, however written, is a 400 naming `page`; the largest is an empty page, not a 500.
import { onEachBackend, refusal } from './services.js'

const BOUND = 'must be an integer between 1 and 9007199254740991'

onEachBackend('a page number past 2^53 - 1 is a 400 naming the parameter', async (t, { orchestrator }) => {
  for (const list of ['/api/v1/tasks', '/api/v1/knowledge', '/api/v1/arms', '/api/v1/api-keys']) {
    for (const page of ['9007199254740992', '99999999999999999999', '1e3', '-1', '0x10']) {
      const res = await fetch(`${orchestrator}${list}?page=${page}`)
      t.same(await refusal(res), { status: 400, code: 'VALIDATION_ERROR', field: 'page', constraint: BOUND }, `${list}?page=${page}`)
    }
    const last = await fetch(`${orchestrator}${list}?page=9007199254740991&page_size=100`)
    t.equal(last.status, 200, `${list}: the largest page is answered`)
    const body = (await last.json()) as { data: unknown[]; pagination: { page: number } }
    t.same({ rows: body.data.length, page: body.pagination.page }, { rows: 0, page: 9007199254740991 }, `${list}: and empty`)
  }
})
