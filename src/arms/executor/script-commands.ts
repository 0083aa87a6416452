/**
 * What an awk program or a sed script would do beyond reading and writing text: start a command
 * (awk's `system()`, a `|` to or from a command, gawk's indirect `@f()` calls and `@load`; sed's
 * `e` command and `s///e` flag) or write a file (sed's `w`/`W` command and `s///w` flag). One pass
 * over the text, no regular expression; the answer is why it is refused, or undefined.
 *
 * ```ts
 * awkProgramRefusal('BEGIN { system("id") }') // 'calls system()'
 * sedScriptRefusal('s/a/b/;1e id')             // "has the 'e' command, which runs a command"
 * ```
 *
 * Each errs towards refusing: a `|` not shown to sit in a string, a regular expression or a
 * logical or is taken as a pipe (a `/` after `+` or `-` is read as division, as `a++ / 2` is).
 */

const SPACE = ' \t\r\n'
const WORD = /^[A-Za-z0-9_]$/

/** A character after which `/` opens a regular expression in awk rather than dividing. */
const BEFORE_REGEX = '(,=~!&|{};:?*%<>[\n'

export function awkProgramRefusal(text: string): string | undefined {
  let previous = '\n'
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      i = closing(text, i + 1, '"', 'none')
      previous = '"'
    } else if (c === '#') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++
    } else if (c === '/' && BEFORE_REGEX.includes(previous)) {
      i = closing(text, i + 1, '/', 'escaping')
      previous = '/'
    } else if (c === '|') {
      if (text[i + 1] !== '|') return 'pipes to or from a command'
      i++
      previous = '|'
    } else if (c === '@') {
      return "has an '@' directive or indirect call (@load, @include, @f())"
    } else if (WORD.test(c)) {
      let end = i
      while (end + 1 < text.length && WORD.test(text[end + 1]!)) end++
      const word = text.slice(i, end + 1)
      let next = end + 1
      while (next < text.length && SPACE.includes(text[next]!)) next++
      if (word === 'system' && text[next] === '(') return 'calls system()'
      i = end
      previous = 'a'
    } else if (!SPACE.includes(c) || c === '\n') {
      previous = c
    }
  }
  return undefined
}

/**
 * How a bracket expression (`[…]`) reads inside a regular expression: not at all (a string), with
 * `\` escaping as elsewhere (awk), or with `\` an ordinary character, as POSIX and GNU sed have it.
 */
type Brackets = 'none' | 'escaping' | 'posix'

/** The index of the unescaped `end` from `from` (or the text's last index when there is none). */
function closing(text: string, from: number, end: string, brackets: Brackets): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i]
    if (c === '\\') i++
    else if (c === '[' && brackets !== 'none') i = bracketEnd(text, i, brackets === 'escaping')
    else if (c === end) return i
  }
  return text.length - 1
}

/** The `]` closing the bracket expression opened at `open`: a `]` first is literal, `[:…:]` nests. */
function bracketEnd(text: string, open: number, escaping: boolean): number {
  let i = open + 1
  if (text[i] === '^') i++
  if (text[i] === ']') i++
  for (; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\' && escaping) i++
    else if (c === '[' && ':.='.includes(text[i + 1] ?? ' ')) {
      const close = text.indexOf(`${text[i + 1]}]`, i + 2)
      if (close < 0) return text.length
      i = close + 1
    } else if (c === ']') return i
  }
  return text.length
}

/** The sed commands that take no argument, or one read by `skipTo` below. */
const PLAIN_COMMANDS = '=dDgGhHnNpPxzF{}'

export function sedScriptRefusal(text: string): string | undefined {
  const s = { text, i: 0 }
  while (s.i < text.length) {
    skip(s, `${SPACE};`)
    if (s.i >= text.length) break
    address(s)
    skip(s, SPACE)
    if (text[s.i] === ',') {
      s.i++
      skip(s, SPACE)
      address(s)
    }
    skip(s, SPACE)
    while (text[s.i] === '!') {
      s.i++
      skip(s, SPACE)
    }
    const command = text[s.i++]
    if (command === undefined) break
    if (command === 'e') return "has the 'e' command, which runs a command"
    if (command === 'w' || command === 'W') return `has the '${command}' command, which writes a file`
    if (command === 's') {
      const delimiter = text[s.i++]
      if (delimiter === undefined) break
      s.i = closing(text, s.i, delimiter, 'posix') + 1
      s.i = closing(text, s.i, delimiter, 'none') + 1
      while (s.i < text.length && 'gpiImMe0123456789w'.includes(text[s.i]!)) {
        const flag = text[s.i++]
        if (flag === 'e') return "has an 's' command with the 'e' flag, which runs a command"
        if (flag === 'w') return "has an 's' command with the 'w' flag, which writes a file"
      }
    } else if (command === 'y') {
      const delimiter = text[s.i++]
      if (delimiter === undefined) break
      s.i = closing(text, s.i, delimiter, 'none') + 1
      s.i = closing(text, s.i, delimiter, 'none') + 1
    } else if ('aicrR#'.includes(command)) {
      lineEnd(s) // text, a file to read or a comment: to the end of the line
    } else if (':btTvqQlL'.includes(command)) {
      skipTo(s, ';\n') // a label, a version or a number
    } else if (!PLAIN_COMMANDS.includes(command)) {
      return undefined // not a command: sed refuses the script itself
    }
  }
  return undefined
}

interface Cursor {
  text: string
  i: number
}

function skip(s: Cursor, chars: string): void {
  while (s.i < s.text.length && chars.includes(s.text[s.i]!)) s.i++
}

function skipTo(s: Cursor, ends: string): void {
  while (s.i < s.text.length && !ends.includes(s.text[s.i]!)) s.i++
}

/** To the end of the line; a backslash-newline continues it. */
function lineEnd(s: Cursor): void {
  while (s.i < s.text.length && s.text[s.i] !== '\n') s.i += s.text[s.i] === '\\' ? 2 : 1
}

/** One address: a line number (`first~step`), `$`, `/regex/` or `\cregexc` with I/M flags, `+N` or `~N`. */
function address(s: Cursor): void {
  const c = s.text[s.i]
  if (c === '/' || c === '\\') {
    const delimiter = c === '/' ? '/' : s.text[++s.i]
    if (delimiter === undefined) return
    s.i = closing(s.text, s.i + 1, delimiter, 'posix') + 1
    skip(s, 'IM')
  } else if (c === '$') {
    s.i++
  } else {
    skip(s, '+~0123456789')
  }
}
