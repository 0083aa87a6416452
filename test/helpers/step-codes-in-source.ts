/**
 * Reads TypeScript source for the step error codes it raises, where the types cannot see them: an
 * error object literal (`{ code, message, retryable }`, typed with `code: string` because a record
 * may hold an external arm's code) and a comparison with a `.code`. It also reads the calls the
 * types do check (`new ArmError(…)`, `new StepError(…)`, `new LlmError(…)`, `new BilledLlmError(…)`,
 * `stepFailure(…)`), to catch a flag passed beside a code whose flag the catalogue fixes.
 *
 * ```ts
 * problemsIn('x.ts', "throw new ArmError('COMAND_FAILED', 'exit 1')")
 * // [{ where: 'x.ts:1', problem: "COMAND_FAILED is not in the step error catalogue" }]
 * ```
 *
 * Codes compared with `.code` that start with `ERR_` are Node's and libraries' own, not ours.
 */
import ts from 'typescript'
import { STEP_ERRORS } from '../../src/step-errors.js'

/** Where each raiser takes its flag. */
const FLAG_AT: Readonly<Record<string, number>> = { ArmError: 2, StepError: 2, LlmError: 2, BilledLlmError: 4, stepFailure: 2 }
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/

export interface Problem {
  where: string
  problem: string
}

/** Every string literal `node` can evaluate to: itself, or the branches of a conditional. */
function literals(node: ts.Node | undefined): ts.StringLiteralLike[] {
  if (node === undefined) return []
  if (ts.isStringLiteralLike(node)) return [node]
  if (ts.isParenthesizedExpression(node)) return literals(node.expression)
  if (ts.isConditionalExpression(node)) return [...literals(node.whenTrue), ...literals(node.whenFalse)]
  return []
}

export function problemsIn(file: string, text: string): Problem[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const problems: Problem[] = []
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`
  const check = (literal: ts.StringLiteralLike): boolean => {
    if (literal.text in STEP_ERRORS) return true
    problems.push({ where: at(literal), problem: `${literal.text} is not in the step error catalogue` })
    return false
  }

  const visit = (node: ts.Node): void => {
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText(source) in FLAG_AT) {
      const args: readonly ts.Expression[] = node.arguments ?? []
      const flag = args[FLAG_AT[node.expression.getText(source)]!]
      const known = literals(args[0]).filter(check)
      // One code, not a choice of codes: the flag of a choice may serve a branch whose flag varies.
      const code = known.length === 1 && args[0] !== undefined && ts.isStringLiteralLike(args[0]) ? known[0]!.text : undefined
      const literalFlag = flag?.kind === ts.SyntaxKind.TrueKeyword || flag?.kind === ts.SyntaxKind.FalseKeyword
      if (code !== undefined && literalFlag && STEP_ERRORS[code as keyof typeof STEP_ERRORS].retryable !== 'varies')
        problems.push({ where: at(flag!), problem: `${code}: the catalogue fixes its flag; do not pass one` })
    }
    if (ts.isObjectLiteralExpression(node)) {
      const named = (name: string) =>
        node.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(source) === name)
      const hasFlag = node.properties.some((p) => p.name?.getText(source) === 'retryable')
      if (hasFlag) for (const literal of literals(named('code')?.initializer)) check(literal)
    }
    if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)
    ) {
      const sides = [node.left, node.right]
      const comparesCode = sides.some((side) => ts.isPropertyAccessExpression(side) && side.name.text === 'code')
      if (comparesCode)
        for (const literal of sides.flatMap(literals))
          if (UPPER_SNAKE.test(literal.text) && !literal.text.startsWith('ERR_')) check(literal)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return problems
}

/** Every string literal of the source that names a catalogue code. */
export function codesNamedIn(file: string, text: string): Set<string> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const found = new Set<string>()
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) && node.text in STEP_ERRORS) found.add(node.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}
