import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { npmInstall, packed, ROOT, run, tempDir } from './packed.js'

// Uses the types a user reaches for; the @ts-expect-error lines fail the compile if the package's
// declarations went missing or loose (everything `any`).
const PROBE = `
import { type CheckResult, Detector, RateLimiter, REFLEX_ERRORS, type ReflexErrorCode } from '@ganglion/reflex'
const result: CheckResult = new Detector({ blockLevel: 'medium' }).check('hi', { checkPii: false })
const first: string | undefined = result.pii_matches[0]?.matched_text
const wait: number = new RateLimiter().take('ip:1', { capacity: 1, windowMs: 1000 }).retryAfterMs
const code: ReflexErrorCode = REFLEX_ERRORS.invalidOption
// @ts-expect-error an unknown block level
new Detector({ blockLevel: 'loud' })
// @ts-expect-error results are snake_case
result.piiMatches
console.log(first, wait, code)
`

t.test('the installed package type-checks in a strict TypeScript project', async (t) => {
  const dir = tempDir(t, 'reflex-typescript-')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'a-typescript-project', private: true, type: 'module' }))
  await npmInstall(dir, await packed())

  writeFileSync(join(dir, 'probe.ts'), PROBE)
  // The repository's compiler and Node types (the package's declarations mention Buffer); skipLibCheck
  // stays off, so the package's own .d.ts files are checked too.
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  const options = ['--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck', 'false']
  const types = ['--typeRoots', join(ROOT, 'node_modules/@types'), '--types', 'node']
  const errors = await run(process.execPath, [tsc, ...options, ...types, 'probe.ts'], { cwd: dir }).then(
    () => '',
    (err) => String(err.stdout),
  )
  t.equal(errors, '', 'no type errors')
})
