/**
 * The QuickJS WebAssembly module: compiled once per process, then instantiated wherever a script
 * runs (each call's worker thread gets the compiled module, not the bytes, so no worker compiles).
 *
 * ```ts
 * const wasmModule = await compiledQuickJS()          // main thread, once
 * const quickjs = await instantiateQuickJS(wasmModule) // in the worker
 * ```
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

import variant from '@jitl/quickjs-wasmfile-release-sync'
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'

// The variant's package maps `types` to its CommonJS typings, so TypeScript sees the module
// namespace where Node's ESM loader gives the variant itself: the cast restores the real type.
type Variant = Parameters<typeof newQuickJSWASMModuleFromVariant>[0]
const baseVariant = variant as unknown as Variant

let compiled: Promise<WebAssembly.Module> | undefined

export function compiledQuickJS(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')
    return WebAssembly.compile(await readFile(path))
  })()
  compiled.catch(() => {
    compiled = undefined
  }) // a failed load is tried again by the next call
  return compiled
}

export function instantiateQuickJS(wasmModule: WebAssembly.Module): Promise<QuickJSWASMModule> {
  return newQuickJSWASMModuleFromVariant(newVariant(baseVariant as Parameters<typeof newVariant>[0], { wasmModule }) as Variant)
}
