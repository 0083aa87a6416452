/**
 * The executor arm: three sandboxed tools. `shell` runs an allow-listed command under bubblewrap,
 * `javascript` evaluates a script in QuickJS (WebAssembly), `http_fetch` reads an allow-listed
 * public URL. docs/arms/executor.md says what each confines and how.
 *
 * ```ts
 * const executor = createExecutorArm({ fetchAllow: ['api.example.com', '*.wikipedia.org'] })
 * await executor.execute({ …request, tool: 'shell', input: { command: 'wc', args: ['-l'], stdin: 'a\nb\n' } }, ctx)
 * // → { exit_code: 0, stdout: '2\n', stderr: '', truncated: false, duration_ms: 14, signal: null }
 * ```
 */
import { ARM_TOOLS, type Arm, ArmError, type ArmHealth } from '../contract.js'
import { checkFetchAllow } from './address-policy.js'
import { defaultLookup, type FetchOutput, HttpFetchTool, type LookupAll } from './http-fetch-tool.js'
import { type JavascriptOutput, JavascriptTool } from './javascript-tool.js'
import { type ExecutorLimits, resolveLimits } from './limits.js'
import { compiledQuickJS, instantiateQuickJS } from './quickjs-module.js'
import { sandboxTools } from './sandbox.js'
import { inputSchema, outputSchema } from './schemas.js'
import { DEFAULT_SHELL_ALLOW, type ShellOutput, ShellTool } from './shell-tool.js'

export { DEFAULT_LIMITS, type ExecutorLimits } from './limits.js'
export { DEFAULT_SHELL_ALLOW } from './shell-tool.js'
export type { FetchOutput, JavascriptOutput, ShellOutput }

export interface ExecutorOptions {
  /** Commands `shell` may run, bare names in /usr/bin; default DEFAULT_SHELL_ALLOW. Shells and interpreters are refused at start. */
  shellAllow?: readonly string[]
  /** Hosts `http_fetch` may reach: exact names, or `*.example.com` for its subdomains; empty = no fetch. */
  fetchAllow: readonly string[]
  limits?: Partial<ExecutorLimits>
  /** Where bubblewrap is; default /usr/bin/bwrap. */
  bwrapPath?: string
  /** Test seam: name resolution for `http_fetch` (default: the system resolver). Production never sets it. */
  lookup?: LookupAll
  /**
   * Test seam: exact addresses `http_fetch` may connect to although they are not public (a test's
   * loopback server, the only server reachable here). Production never sets it.
   */
  testAllowAddresses?: readonly string[]
}

const DESCRIPTION =
  'Runs work in sandboxes: shell (an allow-listed text command, argv only, under bubblewrap with no network, ' +
  'a read-only system, a private /tmp and CPU, memory, time and output limits), javascript (a script in a QuickJS ' +
  'WebAssembly sandbox with memory and time limits; code may come from a coder step), http_fetch (GET/HEAD of an ' +
  'allow-listed host; private and loopback addresses refused).'

export function createExecutorArm(opts: ExecutorOptions): Arm {
  const limits = resolveLimits(opts.limits)
  const shell = new ShellTool(opts.shellAllow ?? DEFAULT_SHELL_ALLOW, sandboxTools(opts.bwrapPath), limits)
  const javascript = new JavascriptTool(limits)
  const fetch = new HttpFetchTool(
    { allow: checkFetchAllow(opts.fetchAllow), lookup: opts.lookup ?? defaultLookup, testAllowAddresses: opts.testAllowAddresses ?? [] },
    limits,
  )

  // Tried once, like the sandbox probe: health is polled, and an instance holds megabytes of WASM memory.
  let quickjsCheck: Promise<{ ok: boolean; detail: string }> | undefined

  return {
    name: 'executor',
    capability: {
      arm_id: 'executor',
      name: 'Executor',
      description: DESCRIPTION,
      capabilities: [...ARM_TOOLS.executor],
      input_schema: inputSchema(limits),
      output_schema: outputSchema(),
      cost_tier: 'low',
    },

    async execute(request, ctx) {
      const input = request.input as Record<string, unknown>
      switch (request.tool) {
        case 'shell':
          return shell.run(input, request.timeout_ms, ctx.signal)
        case 'javascript':
          return javascript.run(request, request.timeout_ms, ctx.signal)
        case 'http_fetch':
          return fetch.run(input, request.timeout_ms, ctx.signal)
        default:
          throw new ArmError('TOOL_UNKNOWN', `the executor has no tool '${request.tool}' (shell, javascript, http_fetch)`)
      }
    },

    async health(): Promise<Pick<ArmHealth, 'status' | 'checks'>> {
      const sandbox = await shell.sandbox()
      quickjsCheck ??= compiledQuickJS()
        .then(instantiateQuickJS)
        .then(
          () => ({ ok: true, detail: 'QuickJS WebAssembly module loaded' }),
          (err: Error) => ({ ok: false, detail: err.message }),
        )
      const quickjs = await quickjsCheck
      const checks = {
        shell_sandbox: sandbox,
        javascript: quickjs,
        shell_commands_missing: shell.missing,
        fetch_hosts: opts.fetchAllow.length,
      }
      const status = sandbox.ok && quickjs.ok ? 'healthy' : sandbox.ok || quickjs.ok ? 'degraded' : 'unhealthy'
      return { status, checks }
    },

    close(): Promise<void> {
      return javascript.close()
    },
  }
}
