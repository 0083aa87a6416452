/**
 * Composition of the arms' side of the orchestrator (part of the composition root, beside app.ts):
 * the model provider, the embedder, the knowledge store and episodic memory, the capability-token
 * issuer, and the registry that reaches each arm in-process or at its `ARM_<NAME>_URL`.
 *
 * ```ts
 * const arms = await openArms(config, { sql, detector, log })
 * startTaskRunner({ ..., steps: arms.steps(deps), planner: arms.planner(deps) })
 * await arms.close()
 * ```
 */

import type { Detector } from '@ganglion/reflex'
import { armAddressPolicy } from './arms/arm-address.js'
import { HttpArmClient } from './arms/arm-client.js'
import { ArmHost } from './arms/arm-host.js'
import { type BuiltinArmDeps, createBuiltinArm } from './arms/builtin-arms.js'
import { BUILTIN_ARMS, type BuiltinArm } from './arms/contract.js'
import { InProcessArmEndpoint } from './arms/in-process-endpoint.js'
import type { Episode, EpisodicMemory } from './arms/memory.js'
import { ArmRegistry, type BuiltinArmEntry } from './arms/registry.js'
import { CapabilityIssuer } from './auth/capability-issuer.js'
import type { Config } from './config/load.js'
import { injectionScreen } from './injected-passages.js'
import { createLlmProvider } from './llm/create-provider.js'
import type { Embedder } from './llm/embedder.js'
import { providerEmbedder } from './llm/embedder.js'
import { HashingEmbedder } from './llm/hashing-embedder.js'
import type { LlmProvider } from './llm/provider.js'
import type { KnowledgeStore } from './stores/knowledge-store.js'
import type { Sql } from './stores/sql.js'
import { SqlEpisodicMemory } from './stores/sql-episodic-memory.js'
import { SqlKnowledgeStore } from './stores/sql-knowledge-store.js'
import type { StoredTask } from './stores/task.js'

export interface ArmsDeps {
  sql: Sql
  detector: Detector
  version: string
  /** Where the Qdrant backfill reports (openKnowledge). */
  log?: BackfillLog
}

interface BackfillLog {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
}

export interface OpenedArms {
  llm: LlmProvider
  knowledge: KnowledgeStore
  memory: EpisodicMemory
  /** Whether Qdrant answers, when it keeps the vectors (QDRANT_URL). */
  qdrant?: () => Promise<'up' | 'down'>
  issuer: CapabilityIssuer
  registry: ArmRegistry
  /** Stores a completed task in episodic memory (redacted), in the task's tenant. */
  remember(task: StoredTask): Promise<void>
  close(): Promise<void>
}

/** The configured model provider; remote ones redact personal data before anything leaves. */
export function openLlm(config: Config, detector: Detector): LlmProvider {
  return createLlmProvider(
    {
      provider: config.llmProvider,
      timeoutMs: config.llmTimeout * 1000,
      maxTokensField: config.llmMaxTokensField,
      ...(config.llmBaseUrl !== undefined && { baseUrl: config.llmBaseUrl }),
      ...(config.llmApiKey !== undefined && { apiKey: config.llmApiKey }),
      ...(config.llmModel !== undefined && { model: config.llmModel }),
      ...(config.llmModelPath !== undefined && { modelPath: config.llmModelPath }),
      ...(config.llmEmbeddingModel !== undefined && { embeddingModel: config.llmEmbeddingModel }),
      ...(config.llmContextSize > 0 && { contextSize: config.llmContextSize }),
    },
    { redact: (text) => detector.redact(text).redacted_text },
  )
}

/** The provider's embeddings when a model for them is configured; the built-in hashing embedder otherwise. */
export function openEmbedder(config: Config, llm: LlmProvider): Embedder {
  if (config.llmEmbeddingModel !== undefined && llm.embed) return providerEmbedder(llm, config.llmEmbeddingModel)
  return new HashingEmbedder()
}

/**
 * The knowledge store (screening documents for injected passages at ingest) and episodic memory
 * over one database; their vectors in Qdrant when QDRANT_URL is set, else in the database's rows.
 */
export async function openKnowledge(
  sql: Sql,
  embedder: Embedder,
  detector: Detector,
  config: Pick<Config, 'qdrantUrl' | 'qdrantApiKey' | 'qdrantCollectionPrefix'>,
  log?: BackfillLog,
): Promise<{ knowledge: KnowledgeStore; memory: EpisodicMemory; qdrant?: () => Promise<'up' | 'down'> }> {
  const qdrant = await openQdrant(config)
  if (qdrant !== undefined) {
    // The first start with Qdrant copies the vectors the rows already hold, in the background.
    const { backfillQdrant } = await import('./stores/qdrant-backfill.js')
    backfillQdrant(sql, qdrant, { onlyWhenBehind: true }).then(
      (copied) => {
        if (copied.knowledge + copied.episodes > 0) log?.info({ copied }, 'qdrant: copied the vectors stored before')
      },
      (err: unknown) => log?.warn({ err }, 'qdrant: copying the vectors stored before failed; it is tried again at the next start'),
    )
  }
  const knowledge = await SqlKnowledgeStore.open(sql, embedder, {
    screen: injectionScreen(detector),
    ...(qdrant && { vectors: qdrant.index('knowledge') }),
  })
  const memory = new SqlEpisodicMemory(sql, embedder, qdrant?.index('episodes'))
  if (qdrant === undefined) return { knowledge, memory }
  const chunks = qdrant.index('knowledge')
  return { knowledge, memory, qdrant: async () => ((await chunks.check()).ok ? 'up' : 'down') }
}

/** The Qdrant collections of QDRANT_URL; the client is loaded only when it is set. */
async function openQdrant(config: Pick<Config, 'qdrantUrl' | 'qdrantApiKey' | 'qdrantCollectionPrefix'>) {
  if (config.qdrantUrl === undefined) return undefined
  const { QdrantIndexes } = await import('./stores/qdrant-vector-index.js')
  return new QdrantIndexes({
    url: config.qdrantUrl,
    prefix: config.qdrantCollectionPrefix,
    ...(config.qdrantApiKey !== undefined && { apiKey: config.qdrantApiKey }),
  })
}

export async function openArms(config: Config, deps: ArmsDeps): Promise<OpenedArms> {
  const llm = openLlm(config, deps.detector)
  const { knowledge, memory, qdrant } = await openKnowledge(deps.sql, openEmbedder(config, llm), deps.detector, config, deps.log)
  const issuer = await CapabilityIssuer.open({
    sql: deps.sql,
    ...(config.capabilityPrivateKey !== undefined && { privateKey: config.capabilityPrivateKey }),
  })
  const armDeps: BuiltinArmDeps = { config, detector: deps.detector, knowledge, memory }
  const hosts: ArmHost[] = []
  const builtin = new Map<string, BuiltinArmEntry>()
  for (const name of BUILTIN_ARMS as readonly BuiltinArm[]) {
    const url = config.armUrls[name]
    if (url !== undefined) {
      builtin.set(name, { endpoint: new HttpArmClient(url), location: url })
      continue
    }
    const host = new ArmHost(createBuiltinArm(name, armDeps), {
      verifier: issuer.localVerifier(),
      llm,
      endpoint: 'in-process',
      version: deps.version,
    })
    hosts.push(host)
    builtin.set(name, { endpoint: new InProcessArmEndpoint(host), location: 'in-process' })
  }
  const registry = await ArmRegistry.open({ builtin, sql: deps.sql, addresses: armAddressPolicy(config.armUrlAllowPrivate) })
  return {
    llm,
    knowledge,
    memory,
    ...(qdrant && { qdrant }),
    issuer,
    registry,
    remember: (task) => memory.remember(task.tenant, episodeOf(task, deps.detector)),
    async close() {
      await registry.close()
      for (const host of hosts) await host.close()
      await issuer.close()
      await llm.close?.()
    },
  }
}

/** What episodic memory keeps of a completed task: the redacted goal, the plan's shape, a short outcome. */
export function episodeOf(task: StoredTask, detector: Detector): Episode {
  const redact = (text: string): string => detector.redact(text).redacted_text
  const outcome = JSON.stringify((task.result as { final?: unknown } | null)?.final ?? task.result ?? null)
  return {
    task_id: task.task_id,
    goal: redact(task.goal),
    steps: task.plan.steps.filter((s) => s.status === 'completed').map((s) => ({ arm: s.arm, tool: s.tool, action: redact(s.action) })),
    outcome: redact(outcome.length > 500 ? `${outcome.slice(0, 497)}...` : outcome),
    completed_at: task.completed_at ?? new Date().toISOString(),
  }
}
