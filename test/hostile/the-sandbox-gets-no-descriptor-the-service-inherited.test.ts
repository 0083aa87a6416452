// A descriptor the service's parent left open (here a pipe at fd 40, above the 0-15 Node marks
// close-on-exec at start) reaches a plain child of the service, but not a command in the
// executor's sandbox: spawnSandbox marks every descriptor close-on-exec first, since bubblewrap
// passes on whatever it inherits. The service is a Node process running
// sandbox/list-descriptors.ts, which lists /proc/self/fd from both.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import t from 'tap'

const INHERITED = 40

t.test('a descriptor the service inherited never reaches a sandboxed command', async (t) => {
  const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe']
  while (stdio.length < INHERITED) stdio.push('ignore')
  stdio.push('pipe')
  const service = spawn(
    process.execPath,
    ['--import', '@tapjs/typescript/import', join(import.meta.dirname, 'sandbox', 'list-descriptors.ts')],
    { stdio },
  )
  let out = ''
  let err = ''
  service.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s))
  service.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s))
  const code = await new Promise<number | null>((resolve) => service.on('close', resolve))
  t.equal(code, 0, err)
  const seen = new Map(
    out
      .trim()
      .split('\n')
      .map((line) => [line.split(' ')[0]!, line.split(' ').slice(1).map(Number)] as const),
  )
  t.ok(seen.get('plain')?.includes(INHERITED), `a plain child inherits fd ${INHERITED}: ${out}`)
  const sandboxed = seen.get('sandboxed')
  t.ok(sandboxed?.includes(1), `the sandboxed command ran and listed its descriptors: ${out}`)
  t.notOk(sandboxed?.includes(INHERITED), `the sandboxed command does not: ${out}`)
  // Its own three and the directory it reads; bubblewrap's seccomp pipes are closed.
  t.same(sandboxed, [0, 1, 2, 3])
})
