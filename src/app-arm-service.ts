/**
 * `ganglion arm <name>`: one built-in arm as its own HTTP service (part of the composition root,
 * beside app.ts). The arm object is the one the orchestrator would host in-process; here its
 * capability tokens are checked against the keys the orchestrators publish at
 * `ORCHESTRATOR_URL/.well-known/jwks.json`.
 *
 * ```sh
 * DATABASE_URL=postgres://… ORCHESTRATOR_URL=http://127.0.0.1:8000 ganglion arm retriever --port 8007
 * # the orchestrator then reaches it with ARM_RETRIEVER_URL=http://127.0.0.1:8007
 * ```
 *
 * The retriever (and the planner, for episodic memory) open the database: in a split deployment
 * that is the orchestrators' PostgreSQL, since an embedded PGlite belongs to one process.
 */

import type { Detector } from '@ganglion/reflex'
import { openEmbedder, openKnowledge, openLlm } from './app-arms.js'
import { ArmHost } from './arms/arm-host.js'
import { registerArmRoutes } from './arms/arm-server.js'
import { type BuiltinArmDeps, createBuiltinArm, DATABASE_ARMS } from './arms/builtin-arms.js'
import type { BuiltinArm } from './arms/contract.js'
import { remoteVerifier } from './auth/capability-verifier.js'
import type { Config } from './config/load.js'
import type { HttpApp } from './http/app.js'
import type { Logger } from './log.js'
import { openSql } from './stores/open-sql.js'

export interface ArmServiceDeps {
  detector: Detector
  log: Logger
  version: string
  /** An HTTP app with the service's common settings, routes not yet added. */
  app: HttpApp
}

/** Starts the arm; resolves with the bound port and a close function (in the order to run it). */
export async function startArmService(
  config: Config,
  name: BuiltinArm,
  port: number,
  deps: ArmServiceDeps,
): Promise<{ port: number; closers: Array<() => Promise<void>> }> {
  const closers: Array<() => Promise<void>> = []
  const llm = openLlm(config, deps.detector)
  closers.push(async () => llm.close?.())
  const armDeps: BuiltinArmDeps = { config, detector: deps.detector }
  // The planner's memory is optional: without a database it plans without examples.
  if (DATABASE_ARMS.has(name) && (name === 'retriever' || config.databaseUrl !== undefined)) {
    const sql = await openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    closers.push(() => sql.close())
    const { knowledge, memory } = await openKnowledge(sql, openEmbedder(config, llm), deps.detector, config, deps.log)
    Object.assign(armDeps, { knowledge, memory })
  }
  const arm = createBuiltinArm(name, armDeps)
  const host = new ArmHost(arm, {
    verifier: remoteVerifier(config.orchestratorUrl),
    llm,
    endpoint: `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`,
    version: deps.version,
  })
  closers.push(async () => arm.close?.())
  registerArmRoutes(deps.app, host)
  const bound = await deps.app.listen(port, config.host)
  closers.push(() => deps.app.close())
  deps.log.info({ arm: name, port: bound, orchestrator: config.orchestratorUrl }, 'arm listening')
  return { port: bound, closers }
}
