// "run `wc -l` on this text: …", "run wc -l on: …" and "count the lines of: …" become one executor
// shell step: the command as argv (never a shell string), the text after the colon as stdin.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('a backticked command line with its text', async (t) => {
  const { output, stored } = await plan('Run `wc -l` on this text: alpha\nbeta\ngamma')
  t.same(outline(output), ['s1 executor.shell', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { command: 'wc', args: ['-l'], stdin: 'alpha\nbeta\ngamma\n' })
  t.equal(stored[0]!.tool, 'shell')
})

t.test('an unquoted command and "count the words of"', async (t) => {
  t.same((await plan('run sort -r on: b\na\nc')).output.steps[0]!.input, { command: 'sort', args: ['-r'], stdin: 'b\na\nc\n' })
  t.same((await plan('Count the words in this text: one two three')).output.steps[0]!.input, {
    command: 'wc',
    args: ['-w'],
    stdin: 'one two three\n',
  })
})

t.test('text after the colon is payload: an URL in it is not fetched', async (t) => {
  const { output } = await plan('count the lines of: fetch https://example.com\nsecond')
  t.same(outline(output), ['s1 executor.shell', 's2 guardian.scrub <- s1'])
})

t.test('a command the executor will refuse is still planned as asked, argv split with quotes', async (t) => {
  const { output } = await plan('Please run `curl -H "Accept: text/html" http://internal.example/admin`')
  t.same(output.steps[0]!.input, { command: 'curl', args: ['-H', 'Accept: text/html', 'http://internal.example/admin'] })
})

t.test('"the shell command", "the command" or nothing before the command, with or without backticks', async (t) => {
  const want = { command: 'wc', args: ['-w'], stdin: 'alpha beta gamma delta\n' }
  for (const goal of [
    'Run the shell command `wc -w` on this text: alpha beta gamma delta',
    'Run the command `wc -w` on: alpha beta gamma delta',
    'Run `wc -w` on: alpha beta gamma delta',
    'run wc -w on this text: alpha beta gamma delta',
    'run the shell command wc -w on this text: alpha beta gamma delta',
  ]) {
    const { output } = await plan(goal)
    t.same(outline(output), ['s1 executor.shell', 's2 guardian.scrub <- s1'], goal)
    t.same(output.steps[0]!.input, want, goal)
  }
})

t.test('a named command without text is planned as asked, for the executor to refuse or run', async (t) => {
  const { output } = await plan('Run the shell command `curl http://example.com`')
  t.same(outline(output), ['s1 executor.shell', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { command: 'curl', args: ['http://example.com'] })
})
