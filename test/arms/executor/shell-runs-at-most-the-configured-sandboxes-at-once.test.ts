// The executor runs at most `shellSandboxes` shell sandboxes at once (EXECUTOR_MAX_SANDBOXES): the
// rest wait their turn, within their step's time; a caller whose time runs out while it waits, or
// whose step is aborted, leaves the queue without running anything.
import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'

import { call, executor } from './executor-fixture.js'

/** The sleeps running on this host, by their exact command line (bubblewrap's own lines end with it too). */
function sleepsRunning(): number {
  let count = 0
  for (const entry of readdirSync('/proc')) {
    try {
      // An unusual duration, so another test's sleeps on this host are not counted.
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === '/usr/bin/sleep\u00001.37\u0000') count++
    } catch {
      /* not a process, or exited while we looked */
    }
  }
  return count
}

t.test('N + 2 slow commands: at most N run at once, and all finish', async (t) => {
  const arm = executor({ limits: { shellSandboxes: 2 } })
  let most = 0
  const sampler = setInterval(() => {
    most = Math.max(most, sleepsRunning())
  }, 20)
  const started = Date.now()
  const outs = await Promise.all(Array.from({ length: 4 }, () => call(arm, 'shell', { command: 'sleep', args: ['1.37'] })))
  clearInterval(sampler)
  t.equal(most, 2, 'two at a time')
  t.ok(Date.now() - started >= 2 * 1370, 'in two rounds')
  for (const out of outs) t.match(out, { exit_code: 0 })
})

t.test('a command that waits past its step time does not start: COMMAND_TIMEOUT', async (t) => {
  const arm = executor({ limits: { shellSandboxes: 1 } })
  const first = call(arm, 'shell', { command: 'sleep', args: ['1.37'] })
  await new Promise((resolve) => setTimeout(resolve, 100))
  const started = Date.now()
  await t.rejects(call(arm, 'shell', { command: 'echo', args: ['never'] }, { timeoutMs: 300 }), {
    code: 'COMMAND_TIMEOUT',
    message: /did not start: no sandbox of 1 came free within 300 ms/,
  })
  t.ok(Date.now() - started < 1000, 'at its step time, not when the slot frees')
  t.match(await first, { exit_code: 0 })
  t.match(await call(arm, 'shell', { command: 'echo', args: ['next'] }), { stdout: 'next\n' }, 'the slot is free again')
})

t.test('the time spent waiting counts against the step: the command gets what is left', async (t) => {
  const arm = executor({ limits: { shellSandboxes: 1 } })
  const first = call(arm, 'shell', { command: 'sleep', args: ['1.37'] })
  await new Promise((resolve) => setTimeout(resolve, 100))
  // 2.5 s of step time: about 1.3 s waiting leaves about 1.2 s, too little for another 1.37 s sleep.
  const error = await call(arm, 'shell', { command: 'sleep', args: ['1.37'] }, { timeoutMs: 2_500 }).catch((err: Error) => err)
  t.match(error, { code: 'COMMAND_TIMEOUT', message: /ran longer than \d+ ms and was killed/ })
  const given = Number(/than (\d+) ms/.exec((error as Error).message)?.[1])
  t.ok(given < 1370, `given ${given} ms, what the wait left of 2500`)
  await first
})

t.test('an abort while waiting ends the wait at once, and the queue goes on', async (t) => {
  const arm = executor({ limits: { shellSandboxes: 1 } })
  const first = call(arm, 'shell', { command: 'sleep', args: ['1.37'] })
  await new Promise((resolve) => setTimeout(resolve, 100))
  const controller = new AbortController()
  const waiting = call(arm, 'shell', { command: 'echo', args: ['never'] }, { signal: controller.signal })
  const after = call(arm, 'shell', { command: 'echo', args: ['after'] })
  const started = Date.now()
  controller.abort()
  await t.rejects(waiting, { name: 'AbortError' })
  t.ok(Date.now() - started < 500, 'at once')
  t.match(await first, { exit_code: 0 })
  t.match(await after, { stdout: 'after\n' }, 'the next in line runs')
})
