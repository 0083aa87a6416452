/**
 * The AbortControllers of the steps this process is running, by task, so a cancel or a timeout can
 * reach them at once. Each controller is also linked to its job's lease signal.
 */
export type AbortKind = 'cancelled' | 'timed_out' | 'step_timeout' | 'lease_lost'

/** The `reason` of an aborted step signal: why the runner stopped it. */
export class StepAbort extends Error {
  constructor(readonly kind: AbortKind) {
    super(`step aborted: ${kind}`)
    this.name = 'StepAbort'
  }
}

export class AbortRegistry {
  private readonly byTask = new Map<string, Set<AbortController>>()

  add(taskId: string, controller: AbortController): () => void {
    let set = this.byTask.get(taskId)
    if (!set) this.byTask.set(taskId, (set = new Set()))
    set.add(controller)
    return () => {
      set.delete(controller)
      if (set.size === 0 && this.byTask.get(taskId) === set) this.byTask.delete(taskId)
    }
  }

  /** Aborts every local step of the task; returns how many were running. */
  abort(taskId: string, kind: AbortKind): number {
    const set = this.byTask.get(taskId)
    if (!set) return 0
    for (const controller of set) if (!controller.signal.aborted) controller.abort(new StepAbort(kind))
    return set.size
  }

  taskIds(): string[] {
    return [...this.byTask.keys()]
  }

  abortAll(kind: AbortKind): void {
    for (const id of this.taskIds()) this.abort(id, kind)
  }
}
