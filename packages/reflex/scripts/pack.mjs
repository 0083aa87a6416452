/**
 * Packs `@ganglion/reflex` and its linux-x64-gnu binary into two tarballs npm installs as they
 * would come from the registry:
 *
 *   node packages/reflex/scripts/pack.mjs dist-pack    # the folder, relative to the repository root
 *   npm install dist-pack/ganglion-reflex-0.1.0.tgz dist-pack/ganglion-reflex-linux-x64-gnu-0.1.0.tgz
 *
 * As napi-rs's prepublish step does, only the packed package.json of `@ganglion/reflex` names the
 * platform package as an optional dependency of the same version: the source one stays without it,
 * so `npm ci` in the workspace never looks for a binary package the workspace builds itself.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const PKG = fileURLToPath(new URL('..', import.meta.url))
const ROOT = resolve(PKG, '../..')
const PLATFORM = join(PKG, 'npm/linux-x64-gnu')
const BINARY = 'reflex.linux-x64-gnu.node'

const fail = (message) => {
  console.error(`pack: ${message}`)
  process.exit(1)
}
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))

if (process.argv.length !== 3) fail('usage: node packages/reflex/scripts/pack.mjs <folder>')
const out = resolve(ROOT, process.argv[2])
const build = 'run `npm run build -w @ganglion/reflex` first'
if (!existsSync(join(PKG, 'bindings', BINARY))) fail(`packages/reflex/bindings/${BINARY} is missing: ${build}`)
if (!existsSync(join(PKG, 'dist/index.js'))) fail(`packages/reflex/dist/ is missing: ${build}`)

const main = readJson(join(PKG, 'package.json'))
const platform = readJson(join(PLATFORM, 'package.json'))
if (platform.version !== main.version) fail(`${platform.name} is ${platform.version}, ${main.name} is ${main.version}`)

/** Runs `npm pack` on `dir` and returns the tarball's path in `out`. */
const pack = (dir) => {
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: dir, encoding: 'utf8' })
  return join(out, JSON.parse(json)[0].filename)
}

mkdirSync(out, { recursive: true })
const stage = mkdtempSync(join(tmpdir(), 'reflex-pack-'))
try {
  const platformDir = join(stage, 'platform')
  mkdirSync(platformDir)
  for (const file of ['package.json', 'README.md']) copyFileSync(join(PLATFORM, file), join(platformDir, file))
  copyFileSync(join(PKG, 'bindings', BINARY), join(platformDir, BINARY))

  const mainDir = join(stage, 'main')
  mkdirSync(join(mainDir, 'bindings'), { recursive: true })
  cpSync(join(PKG, 'dist'), join(mainDir, 'dist'), { recursive: true })
  for (const file of ['index.js', 'index.d.ts']) copyFileSync(join(PKG, 'bindings', file), join(mainDir, 'bindings', file))
  copyFileSync(join(PKG, 'README.md'), join(mainDir, 'README.md'))
  const packed = { ...main, optionalDependencies: { [platform.name]: platform.version } }
  writeFileSync(join(mainDir, 'package.json'), `${JSON.stringify(packed, null, 2)}\n`)

  console.log(pack(platformDir))
  console.log(pack(mainDir))
} finally {
  rmSync(stage, { recursive: true, force: true })
}
