// closeDescriptorsOnExec marks what a process inherited unmarked: a Node process given a pipe at
// fd 40 (above the 0-15 Node marks itself) passes it to a program it starts until the call, and
// not after; a second call finds nothing left to mark.
import { execFileSync } from 'node:child_process'
import t from 'tap'

const INHERITED = 40

const SCRIPT = `
import { execFileSync } from 'node:child_process'
import { closeDescriptorsOnExec } from '@ganglion/reflex'
const fds = () => execFileSync('/usr/bin/ls', ['/proc/self/fd'], { encoding: 'utf8' }).trim().split('\\n').map(Number)
const before = fds()
const marked = closeDescriptorsOnExec()
const after = fds()
console.log(JSON.stringify({ before, marked, after, again: closeDescriptorsOnExec() }))
`

t.test('a descriptor inherited above 15 stops reaching started programs', async (t) => {
  const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe']
  while (stdio.length < INHERITED) stdio.push('ignore')
  stdio.push('pipe')
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { stdio, encoding: 'utf8' })
  const { before, marked, after, again } = JSON.parse(out) as Record<string, unknown>
  t.ok((before as number[]).includes(INHERITED), `started programs inherit fd ${INHERITED} at first: ${out}`)
  t.ok((marked as number) >= 1, 'it was marked')
  t.same(after, [0, 1, 2, 3], 'then a started program has its own three and the directory it reads')
  t.equal(again, 0, 'a second call has nothing to mark')
})
