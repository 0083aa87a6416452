// Dependencies point one way: http → services (reflex, orchestrator, arms) → ports. The arms know
// neither the orchestrator that calls them nor its runner; the capability tokens (src/auth) know
// neither HTTP nor the orchestrator; the step error catalogue, which all of them use, imports nothing.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import t from 'tap'
import ts from 'typescript'

const SRC = new URL('../src/', import.meta.url).pathname

/** What may not import what: paths relative to src/, a folder's ending in `/`. */
const FORBIDDEN: ReadonlyArray<[from: string, to: readonly string[]]> = [
  ['arms/', ['orchestrator/']],
  ['auth/', ['http/', 'orchestrator/']],
  ['step-errors.ts', ['']],
]

/** The files under src/ that `file` (relative to src/) imports, re-exports or loads, relative to src/. */
function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const specifiers: string[] = []
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      specifiers.push(node.moduleSpecifier.text)
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!))
      specifiers.push((node.arguments[0] as ts.StringLiteral).text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(SRC, join(SRC, dirname(file), s)).replace(/\.js$/, '.ts'))
    .filter((target) => !target.startsWith('..'))
}

function violations(files: ReadonlyArray<{ name: string; text: string }>): string[] {
  return files.flatMap(({ name, text }) =>
    importsOf(name, text).flatMap((target) =>
      FORBIDDEN.filter(([from, to]) => name.startsWith(from) && to.some((prefix) => target.startsWith(prefix))).map(
        () => `${name} imports ${target}`,
      ),
    ),
  )
}

t.test('the reader sees static, type-only, re-exported and dynamic imports', async (t) => {
  const sample = [
    "import { advance } from '../orchestrator/runner/advance.js'",
    "import type { HttpApp } from '../../http/app.js'",
    "export { StepError } from '../orchestrator/runner/step-runner.js'",
    "const { JobQueue } = await import('../orchestrator/queue/job-queue.js')",
    "import { ArmError } from './contract.js'",
  ].join('\n')
  t.same(violations([{ name: 'arms/sample.ts', text: sample }]), [
    'arms/sample.ts imports orchestrator/runner/advance.ts',
    'arms/sample.ts imports orchestrator/runner/step-runner.ts',
    'arms/sample.ts imports orchestrator/queue/job-queue.ts',
  ])
  t.same(violations([{ name: 'auth/planner/sample.ts', text: sample }]), ['auth/planner/sample.ts imports http/app.ts'])
})

t.test('no file under src/ imports against the direction', async (t) => {
  const files = (readdirSync(SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((name) => ({ name, text: readFileSync(join(SRC, name), 'utf8') }))
  t.ok(files.some((f) => f.name.startsWith('arms/')) && files.some((f) => f.name.startsWith('auth/')), 'read src/arms and src/auth')
  t.same(violations(files), [])
})
