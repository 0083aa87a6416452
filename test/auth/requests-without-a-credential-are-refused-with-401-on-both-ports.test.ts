// With AUTH=required, a request with no credential, or one that is no bearer token, is a 401 with
// the Bearer challenge on the key routes of the orchestrator and on the reflex layer alike; the
// public routes stay open.
import t from 'tap'
import { postJson, startServices } from '../helpers/servers.js'
import { ADMIN_TOKEN } from './api-key-server.js'

t.test('requests without a credential are refused with 401 on both ports', async (t) => {
  const running = await startServices(t, { reflex: true, orchestrator: true }, { AUTH: 'required', ADMIN_TOKEN })
  const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
  const reflex = `http://127.0.0.1:${running.ports.reflex}`
  const requests: Array<[string, () => Promise<Response>]> = []
  for (const authorization of [undefined, 'Basic YWRtaW46YWRtaW4=', 'Bearer ', `Token ${ADMIN_TOKEN}`]) {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization }
    const how = authorization === undefined ? 'no credential' : JSON.stringify(authorization)
    requests.push(
      [
        `POST /api/v1/api-keys, ${how}`,
        () => postJson(`${orchestrator}/api/v1/api-keys`, { tenant: 'acme', role: 'admin', name: 'x' }, headers),
      ],
      [`GET /api/v1/api-keys, ${how}`, () => fetch(`${orchestrator}/api/v1/api-keys`, { headers })],
      [`DELETE /api/v1/api-keys/x, ${how}`, () => fetch(`${orchestrator}/api/v1/api-keys/x`, { method: 'DELETE', headers })],
      [`GET /api/v1/tasks, ${how}`, () => fetch(`${orchestrator}/api/v1/tasks`, { headers })],
      [`POST /api/v1/check, ${how}`, () => postJson(`${reflex}/api/v1/check`, { text: 'hello' }, headers)],
    )
  }
  for (const [what, send] of requests) {
    const res = await send()
    t.equal(res.status, 401, what)
    t.equal(res.headers.get('www-authenticate'), 'Bearer', `${what}: the challenge`)
    t.match((await res.json()).error, { code: 'UNAUTHORIZED', details: { field: 'authorization' } }, what)
  }
  for (const url of [`${orchestrator}/health`, `${reflex}/health`]) {
    const res = await fetch(url)
    t.equal(res.status, 200, `${url} is public`)
    t.match(await res.json(), { auth: { mode: 'required' } })
  }
})
