#!/usr/bin/env node
/**
 * The `ganglion` command. Servers: `ganglion start` (everything, like `npm start`), `ganglion
 * reflex`, `ganglion orchestrator`, `ganglion arm <name>`; ports default to PORT / REFLEX_PORT and
 * the arms' dev ports (8002-8007), `--port` overrides. A client of a running service: `ganglion
 * run`, `ganglion tasks …`, `ganglion knowledge …` (docs/cli.md). `ganglion keys …` works on the
 * configured database, or over HTTP when `--url` or GANGLION_URL names a service (keys.ts,
 * keys-http.ts). Bad arguments exit 2; the other exit codes are in exit-codes.ts.
 *
 * Each command loads only what it needs, so a client command does not load the servers' code.
 */
import { createRequire } from 'node:module'
import { type Command, Command as Program } from 'commander'
import { ROLES } from '../auth/principal.js'
import { ARM_NAMES as BUILTIN_ARMS } from '../config/schema.js'
import { EXIT_CODES_HELP } from './exit-codes.js'
import type { CreateOptions, ListOptions } from './keys.js'

const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version

const program = new Program('ganglion')
  .version(VERSION)
  .description('Task orchestration service, and a command-line client of it')
  .option('--url <url>', 'the service the client commands call (env GANGLION_URL; default http://127.0.0.1:8000)')
  .option('--key <key>', 'API key or token, sent as a bearer credential (env GANGLION_API_KEY)')
  .option('--json', "print the API's JSON: one object on stdout, nothing else")
  .addHelpText(
    'after',
    `\nEnvironment: GANGLION_URL, GANGLION_API_KEY (the client commands); the servers read the configuration in the README.\n\n${EXIT_CODES_HELP}\n`,
  )
  // Bad arguments exit 2, as every refusal of this command does; help and --version still exit 0.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))

/** Options of the command with the global ones (`--url`, `--key`, `--json`) wherever they were given. */
function options<T>(cmd: Command): T {
  return cmd.optsWithGlobals() as T
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value]
}

async function serve(which: import('../app.js').Which, overrides: Record<string, string> = {}): Promise<void> {
  const { run } = await import('./run.js')
  return run(which, overrides)
}

program
  .command('start')
  .description('run every service in one process')
  .action(() => serve({ reflex: true, orchestrator: true }))

program
  .command('reflex')
  .description('run the reflex layer alone')
  .option('-p, --port <port>', 'port (default REFLEX_PORT or 8001)')
  .action((opts: { port?: string }) => serve({ reflex: true }, opts.port ? { REFLEX_PORT: opts.port } : {}))

program
  .command('orchestrator')
  .description('run the orchestrator (task API and workers) alone')
  .option('-p, --port <port>', 'port (default PORT or 8000)')
  .action((opts: { port?: string }) => serve({ orchestrator: true }, opts.port ? { PORT: opts.port } : {}))

program
  .command('arm')
  .description(`run one arm as its own service: ${BUILTIN_ARMS.join(', ')}`)
  .argument('<name>', 'the arm')
  .option('-p, --port <port>', "port (default the arm's dev port, 8002-8007)")
  .action(async (name: string, opts: { port?: string }) => {
    if (!(BUILTIN_ARMS as readonly string[]).includes(name)) {
      process.stderr.write(`unknown arm ${JSON.stringify(name)}: must be one of ${BUILTIN_ARMS.join(', ')}\n`)
      process.exit(2)
    }
    const arm = name as (typeof BUILTIN_ARMS)[number]
    const { ARM_DEV_PORTS } = await import('../arms/contract.js')
    const port = opts.port ?? String(ARM_DEV_PORTS[arm])
    if (!/^\d+$/.test(port) || Number(port) > 65535) {
      process.stderr.write(`--port ${JSON.stringify(port)}: must be an integer 0..65535\n`)
      process.exit(2)
    }
    return serve({ arm: { name: arm, port: Number(port) } })
  })

program
  .command('run')
  .description('submit a task, follow it with a live progress line, print its answer')
  .argument('<goal>', 'what the task should do')
  .option('--criteria <text>', 'an acceptance criterion the result must meet (repeatable)', collect, [])
  .option('--budget <limit>', 'a limit: tokens (5000), a cost ($0.25 or 0.25usd) or a time (90s) (repeatable)', collect, [])
  .option('--priority <priority>', 'low, medium, high or critical (default medium)')
  .option('--timeout <seconds>', "the task's timeout, 1-86400 seconds")
  .option('--no-wait', 'print the task id and return at once')
  .option('--detach-on-interrupt', 'Ctrl-C stops following and leaves the task running (default: Ctrl-C cancels it)')
  .action(async (goal: string, _opts: unknown, cmd: Command) => {
    const { runTask } = await import('./tasks.js')
    return runTask(goal, options(cmd))
  })

const tasks = program.command('tasks').description('list, read, follow, cancel and delete tasks')

tasks
  .command('list')
  .description('list tasks, newest first')
  .option('--status <status>', 'only tasks in this status')
  .option('--limit <n>', 'at most n tasks, 1-100 (default 20)')
  .option('--page <n>', 'the page of that size (default 1)')
  .action(async (_opts: unknown, cmd: Command) => (await import('./tasks.js')).listTasks(options(cmd)))

tasks
  .command('get')
  .description("print a task's status, steps and answer")
  .argument('<id>', 'task id')
  .action(async (id: string, _opts: unknown, cmd: Command) => (await import('./tasks.js')).getTask(id, options(cmd)))

tasks
  .command('watch')
  .description('follow a task to its end and print its answer (Ctrl-C stops following, the task runs on)')
  .argument('<id>', 'task id')
  .action(async (id: string, _opts: unknown, cmd: Command) => (await import('./tasks.js')).watchTask(id, options(cmd)))

tasks
  .command('cancel')
  .description('ask the service to cancel a task')
  .argument('<id>', 'task id')
  .action(async (id: string, _opts: unknown, cmd: Command) => (await import('./tasks.js')).cancelTask(id, options(cmd)))

tasks
  .command('delete')
  .description("delete a finished task's record: its steps, events and answer (cancel a running one first)")
  .argument('<id>', 'task id')
  .action(async (id: string, _opts: unknown, cmd: Command) => (await import('./tasks.js')).deleteTask(id, options(cmd)))

const knowledge = program.command('knowledge').description("add, search, list and remove documents of the retriever's store")

knowledge
  .command('add')
  .description('add text files as documents, titled with their file names')
  .argument('<file...>', 'UTF-8 text files')
  .action(async (files: string[], _opts: unknown, cmd: Command) => (await import('./knowledge.js')).addKnowledge(files, options(cmd)))

knowledge
  .command('search')
  .description('search the documents (full text and vectors, fused)')
  .argument('<query>', 'what to look for')
  .option('--limit <n>', 'at most n hits, 1-50 (default 5)')
  .action(async (query: string, _opts: unknown, cmd: Command) => (await import('./knowledge.js')).searchKnowledge(query, options(cmd)))

knowledge
  .command('list')
  .description('list documents, newest first')
  .option('--limit <n>', 'at most n documents, 1-100 (default 20)')
  .option('--page <n>', 'the page of that size (default 1)')
  .action(async (_opts: unknown, cmd: Command) => (await import('./knowledge.js')).listKnowledge(options(cmd)))

knowledge
  .command('rm')
  .description('delete documents')
  .argument('<id...>', 'document ids')
  .action(async (ids: string[], _opts: unknown, cmd: Command) => (await import('./knowledge.js')).removeKnowledge(ids, options(cmd)))

const keys = program
  .command('keys')
  .description(
    'manage API keys: over HTTP with an admin credential when --url or GANGLION_URL is given, otherwise directly on the configured database (DATABASE_URL or DATA_DIR; stop an embedded service first)',
  )
  .option('--database', 'work on the configured database even when --url or GANGLION_URL is given')

interface KeysMode {
  url?: string
  database?: boolean
}

/** HTTP when a service is named and --database is not given. */
function keysOverHttp(opts: KeysMode): boolean {
  return opts.database !== true && (opts.url !== undefined || (process.env.GANGLION_URL ?? '') !== '')
}

keys
  .command('create')
  .description('create an API key and print it, once (--json: {id, key, tenant, role, name, created_at, rate_limit, read_rate_limit})')
  .requiredOption('--tenant <tenant>', 'the tenant the key acts in (1-128 of A-Z a-z 0-9 . _ -)')
  .requiredOption('--role <role>', `the key's role: ${ROLES.join(', ')}`)
  .requiredOption('--name <name>', 'what the key is for (1-200 characters)')
  .option('--rate-limit <n>', "writes per minute the key may make (0: no limit; default: the server's RATE_LIMIT_PER_USER)")
  .option('--read-rate-limit <n>', "reads per minute (0: no limit; default: the server's RATE_LIMIT_READS_PER_USER)")
  .action(async (_opts: unknown, cmd: Command) => {
    const opts = options<KeysMode & CreateOptions & ListOptions>(cmd)
    if (keysOverHttp(opts)) return (await import('./keys-http.js')).createKeyHttp(opts)
    return (await import('./keys.js')).createKey(opts)
  })

keys
  .command('list')
  .description('list API keys, never their secrets (--json: the records as a JSON array)')
  .option('--tenant <tenant>', "only this tenant's keys")
  .action(async (_opts: unknown, cmd: Command) => {
    const opts = options<KeysMode & CreateOptions & ListOptions>(cmd)
    if (keysOverHttp(opts)) return (await import('./keys-http.js')).listKeysHttp(opts)
    return (await import('./keys.js')).listKeys(opts)
  })

keys
  .command('revoke')
  .description('revoke an API key: refused everywhere within about a second (exit 1 for an unknown id)')
  .argument('<id>', "the key's id (the part after gk_, before the second _)")
  .action(async (id: string, _opts: unknown, cmd: Command) => {
    const opts = options<KeysMode & CreateOptions & ListOptions>(cmd)
    if (keysOverHttp(opts)) return (await import('./keys-http.js')).revokeKeyHttp(id, opts)
    return (await import('./keys.js')).revokeKey(id)
  })

await program.parseAsync()
