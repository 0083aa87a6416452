/**
 * Arguments with which an allowed command would start another program, or write or delete files,
 * refused before anything runs. The sandbox holds no other program to start (it binds only the
 * command and its libraries) and only a private /tmp to write: this is the second guard, in case a
 * host's libraries ever include an executable. It covers the default allow-list (sort, awk, sed)
 * and the commands a deployment is likely to add (find, tar, split); commands that start programs
 * whatever their options (xargs, env, git, pagers and editors) are never allowed (shell-tool.ts).
 *
 * ```ts
 * refusal('sort', ['--compress-program=gzip']) // { arg: '--compress-program=gzip', why: 'would start another program' }
 * refusal('wc', ['-l'])                         // undefined
 * ```
 *
 * A long option is refused in every abbreviation getopt accepts: any `--x` that begins the name
 * of a refused option (an abbreviation shared with another option is ambiguous, refused by the
 * command itself anyway).
 */
import { awkProgramRefusal, sedScriptRefusal } from './script-commands.js'

export interface Refusal {
  /** The argument refused (or the one holding the refused program text). */
  arg: string
  why: string
}

const STARTS = 'would start another program'
const WRITES = 'would write or delete files'
const UNREAD = 'would read its program from a file, which cannot be checked'

type Check = (args: readonly string[]) => Refusal | undefined

const awk: Check = (args) => scriptRefusal(args, AWK, awkProgramRefusal)
const sed: Check = (args) => scriptRefusal(args, SED, sedScriptRefusal)

const CHECKS: Readonly<Record<string, Check>> = {
  sort: (args) => firstLong(args, ['compress-program'], STARTS),
  split: (args) => firstLong(args, ['filter'], STARTS),
  find: (args) => {
    for (const arg of args) {
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(arg)) return { arg, why: STARTS }
      if (['-fprint', '-fprint0', '-fprintf', '-fls', '-delete'].includes(arg)) return { arg, why: WRITES }
    }
    return undefined
  },
  tar: (args) => {
    const long = firstLong(
      args,
      ['to-command', 'use-compress-program', 'checkpoint-action', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command'],
      STARTS,
    )
    if (long) return long
    // -I PROG and -F SCRIPT, alone or in a cluster (`-xI`), or in the old style's first word (`xIf`).
    for (const [i, arg] of args.entries()) {
      const letters = arg.startsWith('-') && !arg.startsWith('--') ? arg.slice(1) : i === 0 && !arg.startsWith('-') ? arg : ''
      for (const letter of letters) {
        if (letter === 'I' || letter === 'F') return { arg, why: STARTS }
        if (TAR_VALUED.includes(letter)) break // the rest is its value
      }
    }
    return undefined
  },
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  'original-awk': awk,
  sed,
}

/** tar's short options that take a value, attached or next. */
const TAR_VALUED = 'fbCgHKLNTVX'

export function refusal(name: string, args: readonly string[]): Refusal | undefined {
  return Object.hasOwn(CHECKS, name) ? CHECKS[name]!(args) : undefined
}

/** Whether `arg` is `--name`, `--name=…` or an abbreviation of one of `names`. */
function longOption(arg: string, names: readonly string[]): boolean {
  if (!arg.startsWith('--') || arg.length < 3) return false
  const given = arg.slice(2).split('=', 1)[0]!
  return names.some((name) => name.startsWith(given))
}

function firstLong(args: readonly string[], names: readonly string[], why: string): Refusal | undefined {
  const arg = args.find((a) => longOption(a, names))
  return arg === undefined ? undefined : { arg, why }
}

/** How one script language's options read: which give program text, which a file, which a value. */
interface ScriptOptions {
  /** Short options whose value is program text (`-e TEXT`, `-eTEXT`). */
  textShort: string
  textLong: readonly string[]
  /** Refused outright: a program from a file, an extension to load. */
  refusedShort: string
  refusedLong: readonly string[]
  /** Short options that take a value (attached or next), and long ones that take one. */
  valuedShort: string
  valuedLong: readonly string[]
  /** Whether options may follow operands (GNU getopt's order) rather than end at the first. */
  permutes: boolean
}

// gawk's and mawk's options; -W is mawk's door to `-W exec FILE` and others, refused whole.
const AWK: ScriptOptions = {
  textShort: 'e',
  textLong: ['source'],
  refusedShort: 'fEilW',
  refusedLong: ['file', 'exec', 'include', 'load'],
  valuedShort: 'Fv',
  valuedLong: ['field-separator', 'assign'],
  permutes: false,
}

const SED: ScriptOptions = {
  textShort: 'e',
  textLong: ['expression'],
  refusedShort: 'f',
  refusedLong: ['file'],
  valuedShort: 'l',
  valuedLong: ['line-length'],
  permutes: true,
}

/**
 * Finds every piece of program text in `args` (the values of -e, or else the first operand) and
 * asks `check` about each; options that load a program from a file are refused.
 */
function scriptRefusal(args: readonly string[], o: ScriptOptions, check: (text: string) => string | undefined): Refusal | undefined {
  const texts: string[] = []
  let operand: string | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') {
      operand ??= args[i + 1]
      break
    }
    if (arg.startsWith('--')) {
      if (longOption(arg, o.refusedLong)) return { arg, why: UNREAD }
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined
      if (longOption(arg, o.textLong)) texts.push(value ?? args[++i] ?? '')
      else if (longOption(arg, o.valuedLong) && value === undefined) i++
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let at = 1; at < arg.length; at++) {
        const letter = arg[at]!
        if (o.refusedShort.includes(letter)) return { arg, why: UNREAD }
        const valued = o.textShort.includes(letter) || o.valuedShort.includes(letter)
        if (!valued) continue
        const value = at + 1 < arg.length ? arg.slice(at + 1) : args[++i]
        if (o.textShort.includes(letter)) texts.push(value ?? '')
        break
      }
    } else {
      operand ??= arg
      if (!o.permutes) break
    }
  }
  if (texts.length === 0 && operand !== undefined) texts.push(operand)
  for (const text of texts) {
    const why = check(text)
    if (why) return { arg: text, why: `would run a program that ${why}` }
  }
  return undefined
}
