// The whole orchestrator (arms in-process) with LLM_PROVIDER=openai pointed at a local server that
// behaves like a local model, scripted per request (test/llm/fixtures/replay-server.ts), on PGlite
// and, when DATABASE_URL is set, on PostgreSQL with Redis. Its log lines are kept for the test.
import { Writable } from 'node:stream'
import pino from 'pino'
import t, { type Test } from 'tap'
import { start } from '../../../src/app.js'
import { loadConfig } from '../../../src/config/load.js'
import { FINAL, postJson, waitForTask } from '../../helpers/servers.js'
import { type Recorded, type Reply, replayServer } from '../../llm/fixtures/replay-server.js'
import { freshDatabase, SKIP_PG } from '../../stores/pg-schema.js'

export interface ModelService {
  base: string
  /** What the model was sent, in order. */
  requests: Recorded[]
  /** The service's log lines at warn and above, parsed. */
  warnings: Array<Record<string, unknown>>
  run(body: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, any>>
  events(taskId: string): Promise<Array<{ event: string; data: Record<string, any> }>>
}

/** The text of every message of a chat completion request. */
export function promptOf(request: Recorded): string {
  return ((request.body?.messages ?? []) as Array<{ content: string }>).map((m) => m.content).join('\n')
}

/** The structured output a request asks for (`plan`, `verdicts`…), or undefined for plain text. */
export function schemaOf(request: Recorded): string | undefined {
  return (request.body?.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name
}

async function startModelService(
  t: Test,
  reply: (request: Recorded, index: number) => Reply,
  env: Record<string, string>,
  databaseUrl?: string,
): Promise<ModelService> {
  const model = await replayServer(t, reply)
  const warnings: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) warnings.push(JSON.parse(line))
      done()
    },
  })
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: `${model.url}/v1`,
    LLM_MODEL: 'local-model',
    ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    ...(databaseUrl !== undefined && process.env.REDIS_URL !== undefined && { REDIS_URL: process.env.REDIS_URL }),
    ...env,
  })
  const running = await start(config, { orchestrator: true }, pino({ level: 'warn' }, sink))
  t.teardown(() => running.close())
  const base = `http://127.0.0.1:${running.ports.orchestrator}`
  return {
    base,
    requests: model.requests,
    warnings,
    async run(body, timeoutMs = 150_000) {
      const res = await postJson(`${base}/api/v1/tasks`, body)
      if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${await res.text()}`)
      const { task_id } = (await res.json()) as { task_id: string }
      return waitForTask(base, task_id, (x) => FINAL.includes(x.status), timeoutMs)
    },
    async events(taskId) {
      const text = await (await fetch(`${base}/api/v1/tasks/${taskId}/events`)).text()
      return text
        .split('\n\n')
        .filter((block) => block.includes('data: '))
        .map((block) => {
          const line = (name: string) =>
            block
              .split('\n')
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2) ?? ''
          return { event: line('event'), data: JSON.parse(line('data')) }
        })
    },
  }
}

/** Runs `body` on PGlite, and on PostgreSQL when DATABASE_URL is set. */
export function onEachModelBackend(
  name: string,
  reply: (request: Recorded, index: number) => Reply,
  body: (t: Test, service: ModelService) => Promise<void>,
  env: Record<string, string> = {},
): void {
  t.test(`${name} (PGlite)`, async (t) => body(t, await startModelService(t, reply, env)))
  t.test(`${name} (PostgreSQL)`, { skip: SKIP_PG }, async (t) =>
    body(t, await startModelService(t, reply, env, await freshDatabase(t, 'ganglion_model_path'))),
  )
}
