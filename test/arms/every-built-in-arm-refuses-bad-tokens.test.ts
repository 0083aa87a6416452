// Forged, expired, wrong-audience, wrong-scope (and missing, malformed, unsigned, unknown-key,
// wrong-subject) tokens are refused by each of the six real arms: in-process, as the orchestrator
// hosts them, and over HTTP with the verifier an arm service uses (the orchestrator's key set
// fetched from /.well-known/jwks.json).
import { Detector } from '@ganglion/reflex'
import t from 'tap'
import { type BuiltinArmDeps, createBuiltinArm } from '../../src/arms/builtin-arms.js'
import { BUILTIN_ARMS, type BuiltinArm } from '../../src/arms/contract.js'
import { InProcessArmEndpoint } from '../../src/arms/in-process-endpoint.js'
import { remoteVerifier } from '../../src/auth/capability-verifier.js'
import { loadConfig } from '../../src/config/load.js'
import { HashingEmbedder } from '../../src/llm/hashing-embedder.js'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlEpisodicMemory } from '../../src/stores/sql-episodic-memory.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { makeHost, serve, serveArm } from './host/servers.js'
import { endpointTarget, httpTarget, refusesBadTokens } from './host/token-refusals.js'

/** A step each arm can really run, so "accepted" means the arm did its work. */
const STEPS: Record<BuiltinArm, { tool: string; input: Record<string, unknown> }> = {
  planner: { tool: 'plan', input: { constraints: {}, acceptance_criteria: [] } },
  executor: { tool: 'shell', input: { command: 'true' } },
  coder: { tool: 'generate', input: { language: 'javascript', spec: 'the 10th Fibonacci number' } },
  judge: { tool: 'validate', input: { checks: [{ type: 'contains', value: 'x' }] } },
  guardian: { tool: 'scrub', input: { text: 'mail ada@example.com' } },
  retriever: { tool: 'search', input: { query: 'refunds' } },
}

t.test('every built-in arm', async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const embedder = new HashingEmbedder()
  const deps: BuiltinArmDeps = {
    config: loadConfig({}),
    detector: new Detector(),
    knowledge: await SqlKnowledgeStore.open(sql, embedder),
    memory: new SqlEpisodicMemory(sql, embedder),
  }
  for (const name of BUILTIN_ARMS) {
    const step = { arm: name, ...STEPS[name] }
    t.test(`${name} refuses bad tokens in-process`, (t) =>
      refusesBadTokens(t, step, async (issuer) =>
        endpointTarget(new InProcessArmEndpoint(makeHost(createBuiltinArm(name, deps), issuer.localVerifier()))),
      ),
    )
    t.test(`${name} refuses bad tokens over HTTP, checking the orchestrator's published keys`, (t) =>
      refusesBadTokens(t, step, async (issuer) => {
        const orchestrator = await serve(t, (app) =>
          app.route('GET', '/.well-known/jwks.json', async () => ({ body: await issuer.jwks() }), { permission: 'public' }),
        )
        return httpTarget(await serveArm(t, makeHost(createBuiltinArm(name, deps), remoteVerifier(orchestrator))))
      }),
    )
  }
})
