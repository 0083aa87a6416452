/**
 * In-process GGUF models through node-llama-cpp: nothing leaves the process and nothing needs a
 * server. node-llama-cpp is an optional dependency the operator installs (`npm install
 * node-llama-cpp`): its install fetches prebuilt llama.cpp binaries for every GPU backend,
 * hundreds of MB that a default install should not carry. It is imported lazily, on first use.
 *
 * ```ts
 * const llm = new LlamaProvider({ modelPath: '/models/qwen2.5-3b-instruct-q4_k_m.gguf' })
 * await llm.complete({ messages, maxTokens: 200 }, signal)  // loads the model on first use
 * await llm.close()
 * ```
 *
 * A missing model file fails at construction, a missing module at first use, both with
 * `LLM_NOT_CONFIGURED` saying what to do. One context sequence serves one request at a time
 * (requests queue): a CPU runs one generation at a time well, not several. Usage is read from the
 * sequence's token meter, so it is what llama.cpp evaluated (a prompt prefix still in the context
 * from the previous request is not evaluated, nor counted, again). Structured output is enforced
 * while generating, by a grammar made from the JSON Schema (`createGrammarForJsonSchema`; it
 * supports a subset of JSON Schema, a schema outside it is `LLM_BAD_REQUEST`).
 *
 * Written against node-llama-cpp 3.x; the types below declare the part of its API used here,
 * since the package is not installed with the project.
 */
import { statSync } from 'node:fs'
import { basename } from 'node:path'

import { checkRequest } from './check-request.js'
import type { ChatMessage, Completion, CompletionChunk, CompletionRequest, LlmProvider } from './provider.js'
import { LlmError } from './provider.js'
import { parseStructured, prepareSchema } from './structured-output.js'

export interface LlamaProviderOptions {
  /** The .gguf file. */
  modelPath: string
  /** Tokens of context; default: what the model and memory allow (node-llama-cpp decides). */
  contextSize?: number
  /** Layers offloaded to a GPU; default `auto`. */
  gpuLayers?: number | 'auto'
}

/** A module name in a variable, so TypeScript does not look for a package that is not installed. */
const NODE_LLAMA_CPP = 'node-llama-cpp'
const INSTALL_HINT = 'npm install node-llama-cpp (optional: it downloads prebuilt llama.cpp binaries)'

type HistoryItem = { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] }
interface TokenMeterState {
  usedInputTokens: number
  usedOutputTokens: number
}
interface LlamaGrammar {
  readonly grammar?: string
}
interface LlamaSequence {
  readonly tokenMeter: { getState(): TokenMeterState }
}
interface LlamaContext {
  getSequence(): LlamaSequence
  dispose(): Promise<void>
}
interface LlamaEmbeddingContext {
  getEmbeddingFor(text: string): Promise<{ vector: readonly number[] }>
  dispose(): Promise<void>
}
interface LlamaModel {
  createContext(options: { contextSize?: number }): Promise<LlamaContext>
  createEmbeddingContext(options?: { contextSize?: number }): Promise<LlamaEmbeddingContext>
  dispose(): Promise<void>
}
interface Llama {
  loadModel(options: { modelPath: string; gpuLayers?: number | 'auto' }): Promise<LlamaModel>
  createGrammarForJsonSchema(schema: Record<string, unknown>): Promise<LlamaGrammar>
  dispose(): Promise<void>
}
interface LlamaChatSession {
  setChatHistory(history: HistoryItem[]): void
  promptWithMeta(
    text: string,
    options: {
      maxTokens?: number
      temperature?: number
      signal?: AbortSignal
      stopOnAbortSignal?: boolean
      customStopTriggers?: string[]
      grammar?: LlamaGrammar
      onTextChunk?: (text: string) => void
    },
  ): Promise<{ responseText: string; stopReason: string }>
  dispose(options?: { disposeSequence?: boolean }): void
}
interface NodeLlamaCpp {
  getLlama(options?: Record<string, unknown>): Promise<Llama>
  LlamaChatSession: new (options: { contextSequence: LlamaSequence; autoDisposeSequence?: boolean }) => LlamaChatSession
}

interface Loaded {
  module: NodeLlamaCpp
  llama: Llama
  model: LlamaModel
  context: LlamaContext
  sequence: LlamaSequence
}

export class LlamaProvider implements LlmProvider {
  readonly provider = 'llama' as const
  readonly remote = false
  readonly reasoning = true
  readonly model: string
  private loading: Promise<Loaded> | undefined
  private embedding: Promise<LlamaEmbeddingContext> | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private readonly grammars = new WeakMap<object, Promise<LlamaGrammar>>()

  constructor(private readonly options: LlamaProviderOptions) {
    const { modelPath } = options
    let isFile = false
    try {
      isFile = statSync(modelPath).isFile()
    } catch {
      // reported below
    }
    if (!isFile)
      throw new LlmError('LLM_NOT_CONFIGURED', `llama: model file not found: ${modelPath} (LLM_MODEL_PATH must name a .gguf file)`)
    this.model = basename(modelPath).replace(/\.gguf$/i, '')
  }

  /** Loads the module, the model and a context; done on first use, callable to warm up. */
  load(): Promise<Loaded> {
    this.loading ??= this.open().catch((err: unknown) => {
      this.loading = undefined // a later call may find the module installed
      throw err
    })
    return this.loading
  }

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    return this.generate(request, signal, undefined)
  }

  async *stream(request: CompletionRequest, signal?: AbortSignal): AsyncGenerator<CompletionChunk> {
    // the generation calls back with text; this queue turns the callbacks into an iterator
    const stop = new AbortController()
    const pending: string[] = []
    let wake: (() => void) | undefined
    let finished = false
    let result: Completion | undefined
    let failure: unknown
    const joined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal
    void this.generate(request, joined, (text) => {
      pending.push(text)
      wake?.()
    })
      .then(
        (c) => (result = c),
        (err: unknown) => (failure = err),
      )
      .finally(() => {
        finished = true
        wake?.()
      })
    try {
      for (;;) {
        const text = pending.shift()
        if (text !== undefined) yield { type: 'delta', text }
        else if (finished) break
        else await new Promise<void>((resolve) => (wake = resolve))
      }
      if (result === undefined) throw failure
      yield { type: 'done', completion: result }
    } finally {
      if (!finished) stop.abort() // the consumer left early
    }
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const { model } = await this.load()
    this.embedding ??= model.createEmbeddingContext()
    const context = await this.embedding
    return this.serialised(async () => {
      const vectors: number[][] = []
      for (const text of texts) {
        if (signal?.aborted) throw new LlmError('LLM_ABORTED', 'llama: request aborted')
        vectors.push([...(await context.getEmbeddingFor(text)).vector])
      }
      return vectors
    })
  }

  async check(): Promise<{ ok: boolean; detail?: string }> {
    try {
      await this.load()
      return { ok: true, detail: `${this.model} loaded` }
    } catch (err) {
      return { ok: false, detail: (err as Error).message }
    }
  }

  async close(): Promise<void> {
    const loading = this.loading
    this.loading = undefined
    if (loading === undefined) return
    const loaded = await loading.catch(() => undefined)
    if (loaded === undefined) return
    await (await this.embedding?.catch(() => undefined))?.dispose()
    await loaded.context.dispose()
    await loaded.model.dispose()
    await loaded.llama.dispose()
  }

  private async open(): Promise<Loaded> {
    let module: NodeLlamaCpp
    try {
      module = (await import(NODE_LLAMA_CPP)) as NodeLlamaCpp
    } catch (err) {
      // loaders (tsx, tap's) rewrap the error, so the message is checked as well as the code
      const { code, message } = err as { code?: string; message?: string }
      const missing = code === 'ERR_MODULE_NOT_FOUND' || /Cannot find (package|module) 'node-llama-cpp'/.test(message ?? '')
      const why = missing ? 'node-llama-cpp is not installed' : `node-llama-cpp failed to load (${message})`
      throw new LlmError('LLM_NOT_CONFIGURED', `llama: ${why}: ${INSTALL_HINT}`)
    }
    try {
      const llama = await module.getLlama()
      const model = await llama.loadModel({ modelPath: this.options.modelPath, gpuLayers: this.options.gpuLayers ?? 'auto' })
      const context = await model.createContext(this.options.contextSize === undefined ? {} : { contextSize: this.options.contextSize })
      return { module, llama, model, context, sequence: context.getSequence() }
    } catch (err) {
      throw new LlmError('LLM_NOT_CONFIGURED', `llama: cannot load ${this.options.modelPath}: ${(err as Error).message}`)
    }
  }

  private async generate(
    request: CompletionRequest,
    signal: AbortSignal | undefined,
    onText: ((text: string) => void) | undefined,
  ): Promise<Completion> {
    checkRequest(request)
    prepareSchema(request.schema)
    const last = request.messages.at(-1)
    if (last?.role !== 'user') throw new LlmError('LLM_BAD_REQUEST', "llama: the last message must be the user's")
    const loaded = await this.load()
    const grammar = request.schema === undefined ? undefined : await this.grammarFor(loaded.llama, request.schema.schema)

    return this.serialised(async () => {
      if (signal?.aborted) throw new LlmError('LLM_ABORTED', 'llama: request aborted')
      const session = new loaded.module.LlamaChatSession({ contextSequence: loaded.sequence, autoDisposeSequence: false })
      const before = loaded.sequence.tokenMeter.getState()
      try {
        session.setChatHistory(history(request.messages.slice(0, -1)))
        const options: Parameters<LlamaChatSession['promptWithMeta']>[1] = { stopOnAbortSignal: false }
        if (request.maxTokens !== undefined) options.maxTokens = request.maxTokens
        if (request.temperature !== undefined) options.temperature = request.temperature
        if (request.stop !== undefined && request.stop.length > 0) options.customStopTriggers = [...request.stop]
        if (grammar !== undefined) options.grammar = grammar
        if (signal !== undefined) options.signal = signal
        if (onText !== undefined) options.onTextChunk = onText
        const { responseText, stopReason } = await session.promptWithMeta(last.content, options)
        const after = loaded.sequence.tokenMeter.getState()
        const usage = {
          prompt: after.usedInputTokens - before.usedInputTokens,
          completion: after.usedOutputTokens - before.usedOutputTokens,
        }
        const finishReason =
          stopReason === 'maxTokens'
            ? 'length'
            : ['eogToken', 'stopGenerationTrigger', 'customStopTrigger'].includes(stopReason)
              ? 'stop'
              : 'other'
        const completion: Completion = { text: responseText, usage, model: this.model, finishReason }
        if (request.schema !== undefined)
          completion.json = parseStructured(responseText, request.schema, usage, this.model, finishReason === 'length')
        return completion
      } catch (err) {
        if (err instanceof LlmError) throw err
        if (signal?.aborted) throw new LlmError('LLM_ABORTED', 'llama: request aborted')
        throw new LlmError('LLM_UNAVAILABLE', `llama: generation failed: ${(err as Error).message}`)
      } finally {
        session.dispose({ disposeSequence: false })
      }
    })
  }

  private grammarFor(llama: Llama, schema: Record<string, unknown>): Promise<LlamaGrammar> {
    let grammar = this.grammars.get(schema)
    if (grammar === undefined) {
      grammar = llama.createGrammarForJsonSchema(schema).catch((err: unknown) => {
        this.grammars.delete(schema)
        throw new LlmError('LLM_BAD_REQUEST', `llama: the schema cannot be turned into a grammar: ${(err as Error).message}`)
      })
      this.grammars.set(schema, grammar)
    }
    return grammar
  }

  /** One generation at a time on the one sequence. */
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work)
    this.queue = run.catch(() => undefined)
    return run
  }
}

function history(messages: readonly ChatMessage[]): HistoryItem[] {
  return messages.map(
    (m): HistoryItem => (m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content }),
  )
}
