/**
 * Splits a command line as a POSIX shell would split words, without running a shell: the executor
 * takes a command and its argv, never a string for `sh -c`.
 *
 * ```ts
 * splitCommandLine(`grep -c "two words" -i`) // ['grep', '-c', 'two words', '-i']
 * ```
 *
 * Only quoting and backslash escapes; pipes, redirections and `$(…)` stay literal words, so the
 * executor sees (and can refuse) exactly what was asked.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: '"' | "'" | null = null
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote === "'") {
      if (c === "'") quote = null
      else word += c
    } else if (c === '\\' && line[i + 1] === '\n') {
      i++ // a backslash-newline joins the lines, outside single quotes (POSIX line continuation)
    } else if (quote === '"') {
      if (c === '"') quote = null
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i]
      else word += c
    } else if (c === "'" || c === '"') {
      quote = c
      inWord = true
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i]
      inWord = true
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += c
      inWord = true
    }
  }
  // An unclosed quote keeps what it held: the executor reports a bad command better than we could.
  if (inWord) words.push(word)
  return words
}
