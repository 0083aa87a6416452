/**
 * The six built-in arms, built from configuration: the one place that knows every arm's
 * constructor. The orchestrator hosts the ones without an `ARM_<NAME>_URL` in its own process;
 * `ganglion arm <name>` hosts one as a service. Either way the arm is the same object.
 *
 * ```ts
 * const arm = createBuiltinArm('executor', { config, detector })
 * const retriever = createBuiltinArm('retriever', { config, detector, knowledge, memory })
 * ```
 */

import type { Detector } from '@ganglion/reflex'
import type { Config } from '../config/load.js'
import type { KnowledgeStore } from '../stores/knowledge-store.js'
import { createCoderArm } from './coder/coder-arm.js'
import type { Arm, BuiltinArm } from './contract.js'
import { createExecutorArm } from './executor/executor-arm.js'
import { createGuardianArm } from './guardian/guardian-arm.js'
import { createJudgeArm } from './judge/judge-arm.js'
import type { EpisodicMemory } from './memory.js'
import { createPlannerArm } from './planner/planner-arm.js'
import { createRetrieverArm } from './retriever/retriever-arm.js'

export interface BuiltinArmDeps {
  config: Pick<
    Config,
    'executorShellAllow' | 'executorFetchAllow' | 'executorMaxSandboxes' | 'reflexBlockLevel' | 'checkBudgetMs' | 'planMemoryMinSimilarity'
  >
  detector: Detector
  /** The retriever's store; required for the retriever only. */
  knowledge?: KnowledgeStore
  /** Completed tasks: the retriever's `recall` and the planner's examples. */
  memory?: EpisodicMemory
}

/** Arms that need the database (the knowledge store and episodic memory). */
export const DATABASE_ARMS: ReadonlySet<BuiltinArm> = new Set(['retriever', 'planner'])

export function createBuiltinArm(name: BuiltinArm, deps: BuiltinArmDeps): Arm {
  switch (name) {
    case 'planner':
      return createPlannerArm({
        detector: deps.detector,
        minSimilarity: deps.config.planMemoryMinSimilarity,
        ...(deps.memory && { memory: deps.memory }),
      })
    case 'executor':
      return createExecutorArm({
        fetchAllow: deps.config.executorFetchAllow,
        limits: { shellSandboxes: deps.config.executorMaxSandboxes },
        ...(deps.config.executorShellAllow && { shellAllow: deps.config.executorShellAllow }),
      })
    case 'coder':
      return createCoderArm()
    case 'judge':
      return createJudgeArm({ checkBudgetMs: deps.config.checkBudgetMs })
    case 'guardian':
      return createGuardianArm({
        detector: deps.detector,
        blockLevel: deps.config.reflexBlockLevel,
        checkBudgetMs: deps.config.checkBudgetMs,
      })
    case 'retriever': {
      if (!deps.knowledge || !deps.memory) throw new Error('the retriever arm needs the knowledge store and episodic memory')
      return createRetrieverArm({ knowledge: deps.knowledge, memory: deps.memory })
    }
  }
}
