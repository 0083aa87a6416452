/**
 * Host user ids for sandboxes when the service runs as root: each running command gets its own,
 * so RLIMIT_NPROC (counted per real uid) bounds that command alone instead of every sandbox
 * together. Inside the sandbox's user namespace the command still sees uid 65534.
 *
 * ```ts
 * const uid = pool.acquire()   // 1900000000, then …001 while that one is in use
 * pool.release(uid)            // when the command has exited
 * ```
 *
 * The ids own no files (the sandbox's writable /tmp is a tmpfs) and sit far above the ranges
 * distributions give to people (1000+) and to subordinate ids of containers (100000+).
 */
export const SANDBOX_UID_BASE = 1_900_000_000
const SIZE = 4096

export class UidPool {
  private readonly inUse = new Set<number>()
  private cursor = 0

  constructor(
    private readonly base = SANDBOX_UID_BASE,
    private readonly size = SIZE,
  ) {}

  /** A free id; when all are taken (thousands of commands at once) ids are shared again. */
  acquire(): number {
    for (let tried = 0; tried < this.size; tried++) {
      const uid = this.base + this.cursor
      this.cursor = (this.cursor + 1) % this.size
      if (!this.inUse.has(uid)) {
        this.inUse.add(uid)
        return uid
      }
    }
    const shared = this.base + this.cursor
    this.cursor = (this.cursor + 1) % this.size
    return shared
  }

  release(uid: number): void {
    this.inUse.delete(uid)
  }

  get active(): number {
    return this.inUse.size
  }
}
