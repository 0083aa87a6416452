// Hosts for tests: an ArmHost over the echo arm (or any arm), its routes on a real server on port 0,
// and an ExecuteRequest with defaults. Everything started is closed in the test's teardown.
import pino from 'pino'
import { ArmHost } from '../../../src/arms/arm-host.js'
import { registerArmRoutes } from '../../../src/arms/arm-server.js'
import type { Arm, ExecuteRequest } from '../../../src/arms/contract.js'
import { createAuthenticator } from '../../../src/auth/authenticator.js'
import type { CapabilityVerifier } from '../../../src/auth/capability-verifier.js'
import { createHttpApp, type HttpApp } from '../../../src/http/app.js'
import { OfflineProvider } from '../../../src/llm/offline-provider.js'
import type { Llm } from '../../../src/llm/provider.js'
import { executeRequest } from '../arm-context-fixture.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export function makeHost(arm: Arm, verifier: CapabilityVerifier, llm: Llm = new OfflineProvider(), endpoint = 'in-process'): ArmHost {
  return new ArmHost(arm, { verifier, llm, endpoint, version: '0.0.0-test' })
}

/** Serves `register(app)` on 127.0.0.1, port 0; returns the base URL. */
export async function serve(t: Teardown, register: (app: HttpApp) => void, name = 'test'): Promise<string> {
  const app = createHttpApp({
    name,
    bodyLimitBytes: 1 << 20,
    logger: pino({ level: 'silent' }),
    authenticate: createAuthenticator({ mode: 'off' }),
  })
  register(app)
  const port = await app.listen(0, '127.0.0.1')
  t.teardown(() => app.close())
  return `http://127.0.0.1:${port}`
}

/** The arm's three routes over `host` on a real server. */
export function serveArm(t: Teardown, host: ArmHost): Promise<string> {
  return serve(t, (app) => registerArmRoutes(app, host), `arm-${host.name}`)
}

export function request(partial: Partial<ExecuteRequest> & { tool: string }): ExecuteRequest {
  return executeRequest({ action: 'test', goal: 'test', ...partial })
}

/** A token for the default request's task and step, for `tool` on `arm`. */
export async function tokenFor(
  issuer: {
    sign(g: {
      arm: string
      taskId: string
      tenant: string
      stepId: string
      scope: string[]
      ttlSeconds: number
    }): Promise<{ token: string }>
  },
  tool: string,
  arm = 'echo',
): Promise<string> {
  return (await issuer.sign({ arm, taskId: 'task-1', tenant: 'acme', stepId: 's1', scope: [tool], ttlSeconds: 60 })).token
}
