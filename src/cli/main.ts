#!/usr/bin/env node
/**
 * The `ganglion` command: `ganglion start` (everything, like `npm start`), `ganglion reflex`,
 * `ganglion orchestrator`, `ganglion arm <name>`. Ports default to PORT / REFLEX_PORT and the arms'
 * dev ports (8002-8007); `--port` overrides.
 */
import { Command } from 'commander'
import { VERSION } from '../app.js'
import { ARM_DEV_PORTS, BUILTIN_ARMS, type BuiltinArm } from '../arms/contract.js'
import { run } from './run.js'

const program = new Command('ganglion').version(VERSION).description('Task orchestration service')

program
  .command('start')
  .description('run every service in one process')
  .action(() => run({ reflex: true, orchestrator: true }))

program
  .command('reflex')
  .description('run the reflex layer alone')
  .option('-p, --port <port>', 'port (default REFLEX_PORT or 8001)')
  .action((opts: { port?: string }) => run({ reflex: true }, opts.port ? { REFLEX_PORT: opts.port } : {}))

program
  .command('orchestrator')
  .description('run the orchestrator (task API and workers) alone')
  .option('-p, --port <port>', 'port (default PORT or 8000)')
  .action((opts: { port?: string }) => run({ orchestrator: true }, opts.port ? { PORT: opts.port } : {}))

program
  .command('arm')
  .description(`run one arm as its own service: ${BUILTIN_ARMS.join(', ')}`)
  .argument('<name>', 'the arm')
  .option('-p, --port <port>', "port (default the arm's dev port, 8002-8007)")
  .action((name: string, opts: { port?: string }) => {
    if (!(BUILTIN_ARMS as readonly string[]).includes(name)) {
      process.stderr.write(`unknown arm ${JSON.stringify(name)}: must be one of ${BUILTIN_ARMS.join(', ')}\n`)
      process.exit(2)
    }
    const arm = name as BuiltinArm
    const port = opts.port ?? String(ARM_DEV_PORTS[arm])
    if (!/^\d+$/.test(port) || Number(port) > 65535) {
      process.stderr.write(`--port ${JSON.stringify(port)}: must be an integer 0..65535\n`)
      process.exit(2)
    }
    return run({ arm: { name: arm, port: Number(port) } })
  })

await program.parseAsync()
