#!/usr/bin/env node
/**
 * The `ganglion` command: `ganglion start` (everything, like `npm start`), `ganglion reflex`,
 * `ganglion orchestrator`, `ganglion arm <name>`; and `ganglion keys create|list|revoke`, API keys
 * on the configured database (keys.ts). Ports default to PORT / REFLEX_PORT and the arms' dev
 * ports (8002-8007); `--port` overrides. Bad arguments exit 2.
 */
import { Command } from 'commander'
import { VERSION } from '../app.js'
import { ARM_DEV_PORTS, BUILTIN_ARMS, type BuiltinArm } from '../arms/contract.js'
import { ROLES } from '../auth/principal.js'
import { type CreateOptions, createKey, type ListOptions, listKeys, revokeKey } from './keys.js'
import { run } from './run.js'

const program = new Command('ganglion')
  .version(VERSION)
  .description('Task orchestration service')
  // Bad arguments exit 2, as every refusal of this command does; help and --version still exit 0.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))

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

const keys = program
  .command('keys')
  .description('manage API keys directly on the configured database (DATABASE_URL or DATA_DIR); stop an embedded service first')

keys
  .command('create')
  .description('create an API key and print it, once')
  .requiredOption('--tenant <tenant>', 'the tenant the key acts in (1-128 of A-Z a-z 0-9 . _ -)')
  .requiredOption('--role <role>', `the key's role: ${ROLES.join(', ')}`)
  .requiredOption('--name <name>', 'what the key is for (1-200 characters)')
  .option('--rate-limit <n>', "writes per minute the key may make (0: no limit; default: the server's RATE_LIMIT_PER_USER)")
  .option('--read-rate-limit <n>', "reads per minute (0: no limit; default: the server's RATE_LIMIT_READS_PER_USER)")
  .option('--json', 'print {id, key, tenant, role, name, created_at, rate_limit, read_rate_limit} as JSON')
  .action((opts: CreateOptions) => createKey(opts))

keys
  .command('list')
  .description('list API keys (never their secrets)')
  .option('--tenant <tenant>', "only this tenant's keys")
  .option('--json', 'print the records as a JSON array')
  .action((opts: ListOptions) => listKeys(opts))

keys
  .command('revoke')
  .description('revoke an API key: refused everywhere within about a second (exit 1 for an unknown id)')
  .argument('<id>', "the key's id (the part after gk_, before the second _)")
  .action((id: string) => revokeKey(id))

await program.parseAsync()
