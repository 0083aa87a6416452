/**
 * Episodic memory: completed tasks kept as vectors, so the planner can reuse a plan that worked
 * for a similar goal. The retriever's store implements it; the planner only reads it.
 *
 * ```ts
 * await memory.remember('acme', { task_id, goal: redactedGoal, steps: [{ arm: 'executor', tool: 'shell', action: 'Count the lines' }],
 *   outcome: 'completed: 3', completed_at })
 * const similar = await memory.similar('acme', 'count the lines of this file', 3) // best first, score in 0..1
 * ```
 *
 * Every episode belongs to its task's tenant, and `similar` compares a goal with one tenant's
 * episodes only: a plan is never shown another tenant's past goals. There is no way to ask across
 * tenants (an arm learns its task's tenant from its capability token, `ctx.claims.tenant`).
 *
 * Left out on purpose: forgetting single episodes (retention is a maintenance job) and anything
 * but completed tasks (a failed plan is not a plan to imitate).
 */

/**
 * How similar a past task must be to enter a plan prompt. Cosine similarity of the goals' vectors:
 * with the default hashing embedder, goals that share only common words ("the", "of") score about
 * 0.2-0.3 and goals that ask for the same kind of work 0.55 and up; provider embedders
 * (text-embedding-3-small, nomic-embed-text) put unrelated text around 0.1-0.3 as well.
 */
export const PLAN_MEMORY_DEFAULTS = { minSimilarity: 0.5 } as const

export interface EpisodeStep {
  arm: string
  tool: string | null
  action: string
}

export interface Episode {
  task_id: string
  /** Redacted: personal data never enters the memory. */
  goal: string
  steps: EpisodeStep[]
  /** A short description of the result, redacted. */
  outcome: string
  completed_at: string
}

export interface SimilarTask extends Episode {
  /** Similarity to the asked goal, 0..1. */
  score: number
}

export interface EpisodicMemory {
  /** Keeps the episode in `tenant` (its task's). */
  remember(tenant: string, episode: Episode, signal?: AbortSignal): Promise<void>
  /** The `k` episodes of `tenant` most similar to `goal`, best first. */
  similar(tenant: string, goal: string, k: number, signal?: AbortSignal): Promise<SimilarTask[]>
  /** Forgets every episode of `tenant`, with their vectors; how many there were. */
  deleteTenant?(tenant: string): Promise<number>
  /** Removes the vectors of these tasks' episodes whose rows were deleted (a no-op where vectors are columns of the rows). */
  deleteVectors?(taskIds: readonly string[]): Promise<void>
}
