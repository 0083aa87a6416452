import t from 'tap'

import { readSse, type SseEvent } from '../../src/llm/sse.js'

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      controller.close()
    },
  })
}

async function read(chunks: string[]): Promise<SseEvent[]> {
  const events: SseEvent[] = []
  for await (const event of readSse(body(chunks))) events.push(event)
  return events
}

t.test('events named or not, comments skipped, multi-line data joined', async (t) => {
  t.same(await read([': keep-alive\n\nevent: ping\ndata: {"type": "ping"}\n\ndata: a\ndata: b\n\ndata:no-space\n\n']), [
    { event: 'ping', data: '{"type": "ping"}' },
    { event: 'message', data: 'a\nb' },
    { event: 'message', data: 'no-space' },
  ])
})

t.test('lines and CRLF pairs split across chunks, and multi-byte characters too', async (t) => {
  const text = 'event: delta\r\ndata: {"text":"héllo ✓"}\r\n\r\ndata: [DONE]\r\n\r\n'
  const bytes = new TextEncoder().encode(text)
  const events: SseEvent[] = []
  // one byte at a time: every boundary is exercised
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const byte of bytes) controller.enqueue(new Uint8Array([byte]))
      controller.close()
    },
  })
  for await (const event of readSse(stream)) events.push(event)
  t.same(events, [
    { event: 'delta', data: '{"text":"héllo ✓"}' },
    { event: 'message', data: '[DONE]' },
  ])
})

t.test('an unfinished last event is discarded; a lone CR ends a line', async (t) => {
  t.same(await read(['data: one\r\rdata: two']), [{ event: 'message', data: 'one' }])
})

t.test('leaving early cancels the body', async (t) => {
  let cancelled = false
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode('data: tick\n\n'))
    },
    cancel() {
      cancelled = true
    },
  })
  for await (const _ of readSse(stream)) break
  t.ok(cancelled)
})
