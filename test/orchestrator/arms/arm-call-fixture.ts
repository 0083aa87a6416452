// A scripted arm endpoint and token signer for testing the orchestrator's side of an arm call; the
// real arms, tokens and clients are tested in test/arms and end to end.
import type { ArmEndpoint, ExecuteRequest, ExecuteResponse } from '../../../src/arms/contract.js'
import type { CallArmDeps } from '../../../src/orchestrator/runner/call-arm.js'
import type { TaskStore } from '../../../src/stores/task-store.js'
import { testDetector } from '../../fixtures/runner-node.js'

export type Reply = (request: ExecuteRequest) => Omit<ExecuteResponse, 'provenance'> & { tokens?: number }

export interface Recorded {
  requests: ExecuteRequest[]
  tokens: Array<{ arm: string; taskId: string; tenant: string; stepId: string; scope: string[]; ttlSeconds: number }>
  deps: CallArmDeps
}

export function scriptedArms(store: TaskStore, replies: Record<string, Reply>, stepTimeoutMs = 30_000): Recorded {
  const recorded: Recorded = { requests: [], tokens: [], deps: undefined as unknown as CallArmDeps }
  const endpoint = (reply: Reply): ArmEndpoint => ({
    async execute(request, token) {
      recorded.requests.push(request)
      if (token !== `token-${recorded.tokens.length}`) throw new Error('the token signed for this call was not sent')
      const { tokens = 0, ...rest } = reply(request)
      const prompt = Math.floor(tokens / 2)
      return {
        ...rest,
        provenance: {
          arm: 'x',
          tool: request.tool,
          started_at: new Date().toISOString(),
          completed_at: new Date().toISOString(),
          duration_ms: 1,
          tokens: { prompt, completion: tokens - prompt, total: tokens },
          model: tokens ? 'test/model' : null,
          token_id: `jti-${recorded.tokens.length}`,
        },
      } as ExecuteResponse
    },
  })
  recorded.deps = {
    store,
    stepTimeoutMs,
    arms: { get: (name) => (replies[name] ? endpoint(replies[name]) : undefined) },
    detector: testDetector(),
    tokens: {
      async sign(grant) {
        recorded.tokens.push(grant)
        return { token: `token-${recorded.tokens.length}` }
      },
    },
  }
  return recorded
}
