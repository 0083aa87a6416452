/**
 * The token checks every arm must pass, as one reusable function: a token signed for the step is
 * accepted; a missing, malformed, unsigned, forged, wrong-issuer, unknown-key, expired, wrong-audience,
 * wrong-subject (task or step) or out-of-scope token is refused with the right status and code.
 *
 * ```ts
 * t.test('the executor refuses bad tokens in-process', (t) =>
 *   refusesBadTokens(t, { arm: 'executor', tool: 'shell', input: { command: 'true' } },
 *     async (issuer) => endpointTarget(new InProcessArmEndpoint(makeHost(executorArm, issuer.localVerifier())))))
 * ```
 *
 * `makeTarget` gets the trusted issuer and returns how to call the arm under test: `hostTarget`
 * (ArmHost directly: the reason, and the status its route answers), `httpTarget` (raw fetch of `POST {url}/execute`: status
 * and `details.constraint`), or `endpointTarget` (InProcessArmEndpoint or HttpArmClient: the
 * StepError code only, as the runner sees it). "Accepted" means not refused: the arm may still
 * fail the step for its own reasons, so give an input it can run.
 */
import { exportPKCS8, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import type { Test } from 'tap'
import type { ArmHost } from '../../../src/arms/arm-host.js'
import { httpErrorOf } from '../../../src/arms/arm-server.js'
import type { ArmEndpoint, ExecuteRequest } from '../../../src/arms/contract.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { CAPABILITY_ISSUER, CapabilityError } from '../../../src/auth/capability-verifier.js'
import { HttpError } from '../../../src/http/errors.js'
import { StepError } from '../../../src/step-errors.js'
import { request } from './servers.js'

/** What a call came to: status 200 and code ACCEPTED, or the refusal. `status` is absent for endpoints. */
export interface Outcome {
  status?: number
  code: string
}

export interface TokenTarget {
  call(body: ExecuteRequest, token: string | undefined): Promise<Outcome>
}

export interface StepUnderTest {
  arm: string
  tool: string
  input?: Record<string, unknown>
}

const ACCEPTED: Outcome = { status: 200, code: 'ACCEPTED' }

export async function refusesBadTokens(
  t: Test,
  step: StepUnderTest,
  makeTarget: (issuer: CapabilityIssuer) => Promise<TokenTarget>,
): Promise<void> {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
  const pem = await exportPKCS8(pair.privateKey)
  const issuer = await CapabilityIssuer.open({ privateKey: pem })
  // the same key an hour ago: correctly signed, long expired
  const past = await CapabilityIssuer.open({ privateKey: pem, now: () => Date.now() - 3_600_000 })
  const stranger = await CapabilityIssuer.open({})
  t.teardown(() => Promise.all([issuer.close(), past.close(), stranger.close()]))
  const target = await makeTarget(issuer)

  const grant = { arm: step.arm, taskId: 'task-1', tenant: 'acme', stepId: 's1', scope: [step.tool], ttlSeconds: 60 }
  const body = request({ task_id: 'task-1', step_id: 's1', tool: step.tool, input: step.input ?? {} })
  const forger = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  const now = Math.floor(Date.now() / 1000)
  const claims = { step: 's1', scope: [step.tool] }
  const forged = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: issuer.kid }) // claims to be the trusted key
    .setIssuer(CAPABILITY_ISSUER)
    .setAudience(step.arm)
    .setSubject('task-1')
    .setJti('forged')
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(forger.privateKey)
  const otherIssuer = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: issuer.kid }) // the trusted key itself, another iss
    .setIssuer('someone-else')
    .setAudience(step.arm)
    .setSubject('task-1')
    .setJti('other-iss')
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(pair.privateKey)
  const unsigned = new UnsecuredJWT(claims)
    .setIssuer(CAPABILITY_ISSUER)
    .setAudience(step.arm)
    .setSubject('task-1')
    .setJti('unsigned')
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .encode()

  const cases: Array<[string, () => Promise<string | undefined>, Outcome]> = [
    ['a token signed for this step is accepted', async () => (await issuer.sign(grant)).token, ACCEPTED],
    ['no token is refused', async () => undefined, { status: 401, code: 'TOKEN_MISSING' }],
    ['a malformed token is refused', async () => 'not-a-jwt', { status: 401, code: 'TOKEN_INVALID' }],
    ['an unsigned (alg none) token is refused', async () => unsigned, { status: 401, code: 'TOKEN_INVALID' }],
    ['a token signed by another key under the trusted kid is refused', async () => forged, { status: 401, code: 'TOKEN_INVALID' }],
    ['a token of the trusted key with another issuer is refused', async () => otherIssuer, { status: 401, code: 'TOKEN_INVALID' }],
    ['a token from an unknown key is refused', async () => (await stranger.sign(grant)).token, { status: 401, code: 'TOKEN_INVALID' }],
    ['an expired token is refused', async () => (await past.sign(grant)).token, { status: 401, code: 'TOKEN_EXPIRED' }],
    [
      'a token for another arm is refused',
      async () => (await issuer.sign({ ...grant, arm: `not-${step.arm}` })).token,
      { status: 403, code: 'TOKEN_WRONG_AUDIENCE' },
    ],
    [
      'a token for another task is refused',
      async () => (await issuer.sign({ ...grant, taskId: 'task-2' })).token,
      { status: 403, code: 'TOKEN_WRONG_SUBJECT' },
    ],
    [
      'a token for another step is refused',
      async () => (await issuer.sign({ ...grant, stepId: 's2' })).token,
      { status: 403, code: 'TOKEN_WRONG_SUBJECT' },
    ],
    [
      'a token without this tool in scope is refused',
      async () => (await issuer.sign({ ...grant, scope: ['some_other_tool'] })).token,
      { status: 403, code: 'TOKEN_OUT_OF_SCOPE' },
    ],
  ]
  for (const [name, token, expected] of cases) {
    const got = await target.call(body, await token())
    const want = got.status === undefined ? { code: expected.code } : expected
    t.same(got, want, name)
  }
}

/** Calls ArmHost.execute directly; the status is the one the arm's route answers the error with. */
export function hostTarget(host: ArmHost): TokenTarget {
  return {
    async call(body, token) {
      try {
        await host.execute(body, token, new AbortController().signal)
        return ACCEPTED
      } catch (err) {
        const refusal = httpErrorOf(err)
        if (!(refusal instanceof HttpError)) throw err
        return { status: refusal.status, code: err instanceof CapabilityError ? err.reason : refusal.code }
      }
    },
  }
}

/** Calls an ArmEndpoint (in-process or HttpArmClient) as the runner does. */
export function endpointTarget(endpoint: ArmEndpoint): TokenTarget {
  return {
    async call(body, token) {
      try {
        await endpoint.execute(body, token as string, new AbortController().signal)
        return { code: 'ACCEPTED' }
      } catch (err) {
        if (err instanceof StepError) return { code: err.code }
        throw err
      }
    },
  }
}

/** POSTs `{url}/execute` with fetch and reads the spec's error object. */
export function httpTarget(url: string): TokenTarget {
  return {
    async call(body, token) {
      const res = await fetch(`${url}/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token !== undefined && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      })
      const json = (await res.json()) as { error?: { code: string; details: { constraint?: string } } }
      if (res.status === 200) return ACCEPTED
      return { status: res.status, code: json.error?.details.constraint ?? json.error?.code ?? 'NO_ERROR_OBJECT' }
    },
  }
}
