// A local OTLP/HTTP receiver: accepts `POST /v1/traces` as the exporter sends it (JSON, ids in hex)
// and keeps every span with the service.name of the process that sent it.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface ReceivedSpan {
  service: string
  name: string
  kind: number
  traceId: string
  spanId: string
  parentSpanId: string | undefined
  startNs: bigint
  endNs: bigint
  attributes: Record<string, unknown>
  status: { code?: number; message?: string }
}

interface OtlpValue {
  stringValue?: string
  intValue?: string | number
  doubleValue?: number
  boolValue?: boolean
  arrayValue?: { values?: OtlpValue[] }
}
interface OtlpAttribute {
  key: string
  value: OtlpValue
}

function plainValue(v: OtlpValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue
  if (v.intValue !== undefined) return Number(v.intValue)
  if (v.doubleValue !== undefined) return v.doubleValue
  if (v.boolValue !== undefined) return v.boolValue
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(plainValue)
  return undefined
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plainValue(a.value)]))
}

export async function otlpReceiver(t: Teardown): Promise<{ url: string; spans: ReceivedSpan[]; posts: () => number }> {
  const spans: ReceivedSpan[] = []
  let posts = 0
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')))
    req.on('end', () => {
      posts++
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end()
        return
      }
      const body = JSON.parse(raw) as {
        resourceSpans?: Array<{
          resource?: { attributes?: OtlpAttribute[] }
          scopeSpans?: Array<{ spans?: Array<Record<string, any>> }>
        }>
      }
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name'])
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              service,
              name: s.name,
              kind: s.kind,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              startNs: BigInt(s.startTimeUnixNano),
              endNs: BigInt(s.endTimeUnixNano),
              attributes: attributesOf(s.attributes),
              status: s.status ?? {},
            })
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, posts: () => posts }
}

/** Waits until `found()` is true (or the time runs out), polling. */
export async function until(found: () => boolean, timeoutMs = 15_000): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (!found()) {
    if (Date.now() > end) return false
    await new Promise((r) => setTimeout(r, 50))
  }
  return true
}
