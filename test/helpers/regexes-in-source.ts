/**
 * Reads TypeScript source for every regular expression it builds: each regex literal, and each
 * `new RegExp(…)` / `RegExp(…)` whose pattern the reader can evaluate. A pattern is evaluated from
 * string literals, templates (`String.raw` ones read raw), `+`, and `const` bindings of the same
 * file; a binding it cannot evaluate may be given a stand-in value. A pattern that depends on
 * anything else (a parameter, a value built at run time) comes back with `pattern: undefined`.
 *
 * ```ts
 * regexesIn('x.ts', "const A = String.raw`\\d+`\nconst re = new RegExp(`^${A}$`, 'u')")
 * // [{ where: 'x.ts:2', pattern: '^\\d+$', flags: 'u', source: "new RegExp(`^${A}$`, 'u')" }]
 * ```
 */
import ts from 'typescript'

export interface FoundRegex {
  where: string
  /** The pattern, or undefined when the source does not fix it. */
  pattern: string | undefined
  flags: string
  /** The expression as written, to name it where the pattern is not known. */
  source: string
}

export function regexesIn(file: string, text: string, standIns: Readonly<Record<string, string>> = {}): FoundRegex[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`
  const bindings = constBindings(source)
  const found: FoundRegex[] = []

  const evaluate = (node: ts.Expression, seen: Set<string>): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
      return evaluate(node.expression, seen)
    if (ts.isTemplateExpression(node)) {
      let out = node.head.text
      for (const span of node.templateSpans) {
        const part = evaluate(span.expression, seen)
        if (part === undefined) return undefined
        out += part + span.literal.text
      }
      return out
    }
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(source) === 'String.raw') {
      const template = node.template
      if (ts.isNoSubstitutionTemplateLiteral(template)) return rawOf(template, source)
      let out = rawOf(template.head, source)
      for (const span of template.templateSpans) {
        const part = evaluate(span.expression, seen)
        if (part === undefined) return undefined
        out += part + rawOf(span.literal, source)
      }
      return out
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = evaluate(node.left, seen)
      const right = left === undefined ? undefined : evaluate(node.right, seen)
      return right === undefined ? undefined : left! + right
    }
    if (ts.isIdentifier(node)) {
      if (node.text in standIns) return standIns[node.text]
      const bound = bindings.get(node.text)
      if (bound === undefined || seen.has(node.text)) return undefined
      return evaluate(bound, new Set([...seen, node.text]))
    }
    return undefined
  }

  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(source)
      const slash = literal.lastIndexOf('/')
      found.push({ where: at(node), pattern: literal.slice(1, slash), flags: literal.slice(slash + 1), source: literal })
    }
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText(source) === 'RegExp') {
      const [pattern, flags] = node.arguments ?? []
      const flagText = flags === undefined ? '' : evaluate(flags, new Set())
      const patternText = pattern === undefined ? '(?:)' : evaluate(pattern, new Set())
      found.push({
        where: at(node),
        pattern: flagText === undefined ? undefined : patternText,
        flags: flagText ?? '',
        source: node.getText(source),
      })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** `const NAME = expression` anywhere in the file; a name bound twice is left out. */
function constBindings(source: ts.SourceFile): Map<string, ts.Expression> {
  const bindings = new Map<string, ts.Expression>()
  const twice = new Set<string>()
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node) && node.flags & ts.NodeFlags.Const)
      for (const declaration of node.declarations)
        if (ts.isIdentifier(declaration.name) && declaration.initializer) {
          const name = declaration.name.text
          if (bindings.has(name)) twice.add(name)
          bindings.set(name, declaration.initializer)
        }
    ts.forEachChild(node, visit)
  }
  visit(source)
  for (const name of twice) bindings.delete(name)
  return bindings
}

/** A template part as written between its delimiters (`` ` ``, `${`, `}`). */
function rawOf(part: ts.TemplateLiteralLikeNode, source: ts.SourceFile): string {
  if (part.rawText !== undefined) return part.rawText
  const text = part.getText(source)
  const open = 1
  const close = text.endsWith('${') ? 2 : 1
  return text.slice(open, text.length - close)
}
