// Run as a service would be, with descriptors its parent left open: prints the descriptors a plain
// child of this process sees (`plain ...`), then those a command in the executor's sandbox sees
// (`sandboxed ...`), as `ls /proc/self/fd` lists them, one line each.
import { type ChildProcess, spawn } from 'node:child_process'

import { DEFAULT_LIMITS } from '../../../src/arms/executor/limits.js'
import { sandboxArgv, sandboxTools, sharedLibraries, spawnSandbox } from '../../../src/arms/executor/sandbox.js'

function listed(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = ''
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s))
    child.on('close', () => resolve(out.trim().split('\n').join(' ')))
  })
}

const LS = '/usr/bin/ls'
console.log(`plain ${await listed(spawn(LS, ['/proc/self/fd'], { stdio: ['ignore', 'pipe', 'ignore'] }))}`)
const command = { name: 'ls', binary: LS, libraries: await sharedLibraries(LS) }
const argv = sandboxArgv(sandboxTools(), command, ['/proc/self/fd'], DEFAULT_LIMITS)
console.log(`sandboxed ${await listed(spawnSandbox(argv, { stdio: ['ignore', 'pipe', 'ignore'] }))}`)
