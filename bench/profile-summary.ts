/**
 * Where a server's time goes, from a V8 `.cpuprofile` (`node --cpu-prof`): self time by function
 * and by package/area, as Markdown. Used on the reflex service under the HTTP bench:
 *
 *   npm run bench:http -- --reflex-cmd "node --cpu-prof --cpu-prof-dir=/tmp/prof dist/main.js"
 *   node --import @tapjs/typescript/import bench/profile-summary.ts /tmp/prof/*.cpuprofile [--top 25]
 *
 * (The profile is written when the process exits normally, e.g. on SIGTERM with a handler that
 * calls process.exit.)
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } })
const TOP = Number(args.top)

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

/** A coarse area for a script URL, so the table says "hyper-express" rather than a path. */
function area(url: string, fn: string): string {
  if (url === '') return fn.startsWith('(') ? fn : '(native / builtin)'
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (nm) return nm[1] ?? url
  if (url.startsWith('node:')) return url
  const src = /\/(dist|src|bench)\/(.+)$/.exec(url)
  if (src) return `${src[1]}/${src[2]}`
  return url
}

for (const file of positionals) {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(prof.nodes.map((n) => [n.id, n]))
  const selfUs = new Map<number, number>()
  for (const [i, id] of prof.samples.entries()) selfUs.set(id, (selfUs.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0))
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0)
  const idle = [...selfUs.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, v]) => a + v, 0)
  const busy = total - idle

  const byFn = new Map<string, number>()
  const byArea = new Map<string, number>()
  for (const [id, us] of selfUs) {
    const n = byId.get(id)
    if (!n || n.callFrame.functionName === '(idle)') continue
    const { functionName, url, lineNumber } = n.callFrame
    const a = area(url, functionName)
    const key = `${functionName || '(anonymous)'} — ${a}${url ? `:${lineNumber + 1}` : ''}`
    byFn.set(key, (byFn.get(key) ?? 0) + us)
    byArea.set(a, (byArea.get(a) ?? 0) + us)
  }
  const pct = (us: number): string => `${((100 * us) / busy).toFixed(1)} %`
  console.log(`## ${file}\n`)
  console.log(
    `${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} %); shares below are of busy time.\n`,
  )
  console.log('| area | self time |\n|---|---|')
  for (const [a, us] of [...byArea.entries()].sort((x, y) => y[1] - x[1]).slice(0, 15)) console.log(`| ${a} | ${pct(us)} |`)
  console.log(`\n| function (self) | self time |\n|---|---|`)
  for (const [k, us] of [...byFn.entries()].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(`| ${k} | ${pct(us)} |`)
  console.log()
}
