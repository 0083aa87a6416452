// Command lines become argv with the shell's quoting rules, and nothing else of the shell.
import t from 'tap'

import { splitCommandLine } from '../../../src/arms/planner/command-line.js'

t.test('quotes, escapes and literal shell syntax', async (t) => {
  t.same(splitCommandLine(`grep -c "two words" -i`), ['grep', '-c', 'two words', '-i'])
  t.same(splitCommandLine(`echo 'it''s' a\\ b "q\\"d"`), ['echo', 'its', 'a b', 'q"d'])
  t.same(splitCommandLine('cat x | rm -rf / ; $(id)'), ['cat', 'x', '|', 'rm', '-rf', '/', ';', '$(id)'])
  t.same(splitCommandLine('  wc   -l  '), ['wc', '-l'])
  t.same(splitCommandLine(`printf ""`), ['printf', ''])
  t.same(splitCommandLine('wc \\\n  -l'), ['wc', '-l'], 'a backslash-newline continues the line')
  t.same(splitCommandLine('echo "a\\\nb" c\\\nd \'e\\\nf\''), ['echo', 'ab', 'cd', 'e\\\nf'], 'inside double quotes too, not single ones')
})
