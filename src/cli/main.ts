#!/usr/bin/env node
/**
 * The `ganglion` command: `ganglion start` (everything, like `npm start`), `ganglion reflex`,
 * `ganglion orchestrator`. Ports default to PORT / REFLEX_PORT; `--port` overrides.
 */
import { Command } from 'commander'
import { VERSION } from '../app.js'
import { run } from './run.js'

const program = new Command('ganglion').version(VERSION).description('Task orchestration service')

program.command('start').description('run every service in one process').action(() => run({ reflex: true, orchestrator: true }))

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

await program.parseAsync()
