// The events route of one process over a test database (PGlite, or PostgreSQL through
// onEachDatabase), with the process's event feed and the statements of each counted: the route's
// store on one counter, the feed's safety poll on another. Tasks are written by a runner node, as
// the service's runner writes them. Callers authenticate with `<tenant>:<role>` tokens (`acme:`
// for a principal with no role at all).
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import type { Principal, Role } from '../../src/auth/principal.js'
import { EventFeed } from '../../src/orchestrator/event-feed.js'
import { registerEventsRoute } from '../../src/orchestrator/events-route.js'
import { onUse } from '../../src/stores/limited-sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import type { StoredTask } from '../../src/stores/task.js'
import { DelayStepRunner } from '../fixtures/delay-step-runner.js'
import type { Database, RunnerNode } from '../fixtures/runner-node.js'
import { startApp } from '../http/fixtures/start-app.js'

export const TENANT = 'acme'
export const MEMBER = `${TENANT}:member`

const byToken = {
  accepts: (token: string) => token.includes(':'),
  verify: async (token: string): Promise<Principal> => {
    const [tenant, role] = token.split(':') as [string, string]
    return { id: `test:${token}`, tenant, roles: role === '' ? [] : [role as Role], via: 'api-key' }
  },
}

export interface Sse {
  id: number
  event: string
  data: Record<string, unknown>
}

export interface OpenStream {
  res: Response
  /** The events received so far, in order. */
  events: Sse[]
  /** Resolves once `n` events have arrived; fails the wait after `timeoutMs`. */
  received(n: number, timeoutMs?: number): Promise<Sse[]>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  close(): void
}

export interface Rig {
  url: string
  node: RunnerNode
  feed: EventFeed
  /** Statements the route's store has run so far. */
  routeQueries(): number
  /** Statements the feed has run so far (its safety poll). */
  feedQueries(): number
  /** A task that stays queued (no job runs it), in `tenant`. */
  idleTask(tenant?: string): Promise<StoredTask>
  open(taskId: string, options?: { token?: string; lastEventId?: number }): Promise<OpenStream>
}

function parseBlock(block: string): Sse | undefined {
  if (!block.includes('data:')) return undefined
  const field = (name: string) =>
    block
      .split('\n')
      .find((l) => l.startsWith(`${name}: `))
      ?.slice(name.length + 2) ?? ''
  return { id: Number(field('id')), event: field('event'), data: JSON.parse(field('data')) }
}

export async function streamRig(t: Test, db: Database, options: { safetyPollMs: number }): Promise<Rig> {
  const node = await db.node({ steps: new DelayStepRunner({ delayMs: 20 }) })
  let routeQueries = 0
  let feedQueries = 0
  const store = new SqlTaskStore(onUse(node.sql, () => routeQueries++))
  const feed = await EventFeed.open(
    onUse(node.sql, () => feedQueries++),
    { safetyPollMs: options.safetyPollMs },
  )
  const clients: AbortController[] = []
  t.teardown(async () => {
    for (const c of clients) c.abort()
    await feed.close()
  })
  const { url } = await startApp(t, (app) => registerEventsRoute(app, store, feed), {
    authenticate: createAuthenticator({ mode: 'required', verifiers: [byToken] }),
  })

  const open = async (taskId: string, { token = MEMBER, lastEventId }: { token?: string; lastEventId?: number } = {}) => {
    const client = new AbortController()
    clients.push(client)
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId)
    const res = await fetch(`${url}/api/v1/tasks/${taskId}/events`, { headers, signal: client.signal })
    const events: Sse[] = []
    const waiters = new Set<() => void>()
    let ended: Promise<void> = Promise.resolve()
    if (res.status === 200 && res.body) {
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
      ended = (async () => {
        let buffer = ''
        try {
          for (;;) {
            const { value, done } = await reader.read()
            if (done) return
            buffer += value
            const blocks = buffer.split('\n\n')
            buffer = blocks.pop() ?? ''
            for (const block of blocks) {
              const e = parseBlock(block)
              if (e) events.push(e)
            }
            for (const w of waiters) w()
          }
        } catch {
          // closed by the test
        }
      })()
    }
    const received = (n: number, timeoutMs = 15_000): Promise<Sse[]> =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < n) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(events)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`waited for ${n} events, got ${events.length}: ${events.map((e) => e.event).join(', ')}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    return { res, events, received, ended, close: () => client.abort() }
  }

  return {
    url,
    node,
    feed,
    routeQueries: () => routeQueries,
    feedQueries: () => feedQueries,
    async idleTask(tenant = TENANT) {
      const { task } = await node.store.create({
        task_id: randomUUID(),
        tenant,
        goal: 'wait for the events the test appends',
        deadline_at: new Date(Date.now() + 600_000).toISOString(),
      })
      return task
    },
    open,
  }
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Turns the NOTIFY of appends off (or on again) in the node's schema: what a lost notice looks like. */
export async function notices(node: RunnerNode, on: boolean): Promise<void> {
  await node.sql.exec(`alter table task_events ${on ? 'enable' : 'disable'} trigger task_events_notify`)
}
