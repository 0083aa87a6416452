import t from 'tap'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { echoArm } from '../arms/host/echo-arm.js'
import { makeHost, request, serveArm, tokenFor } from '../arms/host/servers.js'

interface Sent {
  body: string
  contentType?: string
}

const BODIES: Array<[string, Sent]> = [
  ['a body missing every field', { body: '{}' }],
  ['a body of the wrong type', { body: '[1,2,3]' }],
  ['a body that is not JSON', { body: '{"task_id": ' }],
  ['an empty body', { body: '' }],
  ['a body that is not declared JSON', { body: 'hello', contentType: 'text/plain' }],
]

t.test('POST /execute answers who the caller is before anything about the body', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const stranger = await CapabilityIssuer.open({})
  t.teardown(() => Promise.all([issuer.close(), stranger.close()]))
  const url = await serveArm(t, makeHost(echoArm(), issuer.localVerifier()))

  const call = async (sent: Sent, authorization?: string) => {
    const headers: Record<string, string> = { 'content-type': sent.contentType ?? 'application/json' }
    if (authorization !== undefined) headers.authorization = authorization
    const res = await fetch(`${url}/execute`, { method: 'POST', headers, body: sent.body })
    const json = (await res.json()) as { error?: { code: string; details: { field?: string; constraint?: string } } }
    return { status: res.status, code: json.error?.code, details: json.error?.details }
  }

  const callers: Array<[string, string | undefined, { status: number; code: string; constraint: string }]> = [
    ['no token', undefined, { status: 401, code: 'UNAUTHORIZED', constraint: 'TOKEN_MISSING' }],
    ['a malformed token', 'Bearer not-a-jwt', { status: 401, code: 'UNAUTHORIZED', constraint: 'TOKEN_INVALID' }],
    [
      'a token from an unknown key',
      `Bearer ${await tokenFor(stranger, 'echo')}`,
      { status: 401, code: 'UNAUTHORIZED', constraint: 'TOKEN_INVALID' },
    ],
    [
      'a token for another arm',
      `Bearer ${await tokenFor(issuer, 'echo', 'judge')}`,
      { status: 403, code: 'FORBIDDEN', constraint: 'TOKEN_WRONG_AUDIENCE' },
    ],
  ]
  for (const [who, authorization, want] of callers) {
    for (const [what, sent] of BODIES) {
      const got = await call(sent, authorization)
      t.same(
        got,
        { status: want.status, code: want.code, details: { field: 'authorization', constraint: want.constraint } },
        `${who}, ${what}`,
      )
    }
  }

  // With a valid token the body is judged as before.
  const token = `Bearer ${await tokenFor(issuer, 'echo')}`
  t.match(await call({ body: '{}' }, token), { status: 400, code: 'VALIDATION_ERROR', details: { field: 'task_id' } })
  t.match(await call({ body: '{"task_id": ' }, token), { status: 400, code: 'VALIDATION_ERROR', details: { field: 'body' } })
  t.match(await call({ body: '' }, token), { status: 400, code: 'VALIDATION_ERROR', details: { field: 'body' } })
  t.match(await call({ body: 'hello', contentType: 'text/plain' }, token), { status: 415 })
  t.match(await call({ body: JSON.stringify(request({ tool: 'echo' })) }, token), { status: 200 })
  // A valid token for another task is matched against the body once it is read: 403.
  const other = (await issuer.sign({ arm: 'echo', taskId: 'task-2', tenant: 'acme', stepId: 's1', scope: ['echo'], ttlSeconds: 60 })).token
  t.match(await call({ body: JSON.stringify(request({ tool: 'echo' })) }, `Bearer ${other}`), {
    status: 403,
    details: { constraint: 'TOKEN_WRONG_SUBJECT' },
  })
})
