/**
 * Kills a sandboxed command's whole tree, including the part bubblewrap moved out of its process
 * group. bubblewrap's sandbox init runs in a session of its own (`--new-session`), so a kill of
 * the group reaches only the outer bubblewrap, and the init is meant to follow by
 * `--die-with-parent`; but that is set up by the init after it is cloned, and an outer bubblewrap
 * killed in between leaves the init (and the command) running, holding the output pipes until
 * the command ends. So the group is stopped first (a stopped bubblewrap clones nothing more), its
 * descendants are read from /proc and killed one by one (the sandbox's PID namespace ends with its
 * init), then the group.
 *
 * ```ts
 * killTree(child.pid) // on timeout, output cap or abort
 * ```
 */
import { readdirSync, readFileSync } from 'node:fs'

export function killTree(root: number): void {
  signal(-root, 'SIGSTOP')
  for (const pid of descendants(root)) signal(pid, 'SIGKILL')
  signal(-root, 'SIGKILL')
}

/** Every process below `root`, by the parent ids in /proc (empty where /proc cannot be read). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>()
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  for (const entry of entries) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    const parent = parentOf(pid)
    if (parent === undefined) continue
    const list = children.get(parent)
    if (list) list.push(pid)
    else children.set(parent, [pid])
  }
  const found: number[] = []
  const queue = [root]
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

/** The parent id from /proc/<pid>/stat: the fourth field, after the command name's closing paren. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ', 2)[1])
  } catch {
    return undefined // exited while we looked
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    /* already gone */
  }
}
