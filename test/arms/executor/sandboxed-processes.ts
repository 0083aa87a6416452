// Finds processes of a sandboxed command on the host by their command line, through /proc (no
// pgrep dependency): how the tests prove that nothing survives a kill.
import { readdirSync, readFileSync } from 'node:fs'

export function processesRunning(argv: readonly string[]): number[] {
  const wanted = argv.join('\0')
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0$/, '')
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (cmdline.endsWith(wanted) && !/\) Z /.test(stat)) found.push(Number(entry))
    } catch {
      /* exited while we looked */
    }
  }
  return found
}

export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return check()
}
