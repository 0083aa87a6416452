// A tiny arm for testing the host, the endpoints and the registry: each tool is one behaviour.
//   echo       → { input, token_id }; emits `test.echo` when input.emit is set
//   ask        → asks the model input.text with input.max_tokens, returns the reply text
//   sleep      → waits input.ms; honours the abort signal unless input.ignore_signal
//   fail       → throws ArmError(input.code, 'it failed', input.retryable)
//   crash      → throws a plain Error (its stack must not leak)
//   bad_output → returns a BigInt, which JSON cannot carry
import { setTimeout as sleep } from 'node:timers/promises'
import { type Arm, ArmError, type ArmHealth } from '../../../src/arms/contract.js'
import type { StepCode } from '../../../src/step-errors.js'

export const ECHO_TOOLS = ['echo', 'ask', 'sleep', 'fail', 'crash', 'bad_output']

export interface EchoArmOptions {
  name?: string
  health?: () => Promise<Pick<ArmHealth, 'status' | 'checks'>>
  /** Called with the arm's signal when `sleep` ends, however it ends. */
  onSleepEnd?: (signal: AbortSignal) => void
}

export function echoArm(opts: EchoArmOptions = {}): Arm {
  const name = opts.name ?? 'echo'
  return {
    name,
    capability: {
      arm_id: name,
      name: `${name} (test arm)`,
      description: 'Echoes its input; other tools exercise the host',
      capabilities: ECHO_TOOLS,
      input_schema: { type: 'object' },
      output_schema: {},
      cost_tier: 'low',
    },
    async execute(request, ctx) {
      const input = request.input as Record<string, any>
      switch (request.tool) {
        case 'echo':
          if (input.emit) ctx.emit({ type: 'test.echo', data: { said: input.emit } })
          return { input, token_id: ctx.claims.tokenId }
        case 'ask': {
          const done = await ctx.llm.complete(
            { messages: [{ role: 'user', content: String(input.text) }], maxTokens: input.max_tokens },
            ctx.signal,
          )
          return { text: done.text }
        }
        case 'sleep':
          try {
            await sleep(Number(input.ms), undefined, input.ignore_signal ? {} : { signal: ctx.signal })
          } finally {
            opts.onSleepEnd?.(ctx.signal)
          }
          return { slept: input.ms }
        case 'fail':
          throw new ArmError(String(input.code) as StepCode, 'it failed', Boolean(input.retryable))
        case 'crash':
          throw new Error('boom')
        case 'bad_output':
          return { n: 1n }
        default:
          throw new ArmError('TOOL_UNKNOWN', request.tool)
      }
    },
    ...(opts.health && { health: opts.health }),
  }
}
