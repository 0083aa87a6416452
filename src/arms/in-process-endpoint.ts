/**
 * An arm hosted in the orchestrator's own process, called without HTTP but otherwise exactly as
 * if it were remote: the request goes through JSON (the host returns JSON copies already), the
 * token is checked by the host, and refusals come back as the same `StepError`s HttpArmClient gives.
 *
 * ```ts
 * const endpoint = new InProcessArmEndpoint(new ArmHost(arm, { verifier: issuer.localVerifier(), llm, endpoint: 'in-process', version }))
 * await endpoint.execute(request, token, signal) // ExecuteResponse, or throws StepError('TOKEN_EXPIRED', …)
 * ```
 *
 * Mapping (the same as arm-client.ts): a token refusal → StepError(the TOKEN_* reason, not
 * retryable); a 400 → ARM_BAD_REQUEST (not retryable); a key set that could not be fetched →
 * ARM_UNREACHABLE (retryable).
 */
import { CapabilityError, KeySetUnavailableError } from '../auth/capability-verifier.js'
import { HttpError } from '../http/errors.js'
import { StepError } from '../step-errors.js'
import type { ArmHost } from './arm-host.js'
import type { ArmCapability, ArmHealth, ExecuteRequest, ExecuteResponse } from './contract.js'
import type { ArmService } from './registry.js'

export class InProcessArmEndpoint implements ArmService {
  constructor(readonly host: ArmHost) {}

  async execute(request: ExecuteRequest, token: string, signal: AbortSignal): Promise<ExecuteResponse> {
    try {
      // The response needs no copy: the host already returns the output and events as JSON copies.
      return await this.host.execute(JSON.parse(JSON.stringify(request)), token, signal)
    } catch (err) {
      throw stepErrorOf(err)
    }
  }

  async health(): Promise<ArmHealth> {
    return this.host.health()
  }

  async capabilities(): Promise<ArmCapability> {
    return this.host.capability()
  }
}

function stepErrorOf(err: unknown): unknown {
  if (err instanceof CapabilityError) return new StepError(err.reason, err.message)
  if (err instanceof HttpError && err.status === 400) return new StepError('ARM_BAD_REQUEST', err.message)
  if (err instanceof KeySetUnavailableError) return new StepError('ARM_UNREACHABLE', err.message)
  return err
}
