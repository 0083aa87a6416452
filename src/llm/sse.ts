/**
 * Server-sent events read from a fetch body, as both model APIs stream: `event:` and `data:` lines,
 * a blank line ends an event, `:` lines are comments (keep-alives). Follows the WHATWG parsing
 * rules that matter here (CR, LF or CRLF line ends; one space after the colon dropped; several
 * `data:` lines joined with LF; an unfinished last event discarded).
 *
 * ```ts
 * for await (const { event, data } of readSse(response.body)) if (data === '[DONE]') break
 * ```
 *
 * Leaving the loop early cancels the body, which closes the connection.
 */
export interface SseEvent {
  /** `message` when the event named none. */
  event: string
  data: string
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let event = ''
  let data: string[] = []
  let finished = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) {
        finished = true
        return
      }
      buffer += decoder.decode(value, { stream: true })
      let end: number
      while ((end = lineEnd(buffer)) >= 0) {
        const line = buffer.slice(0, end)
        // a CR at the very end may be the first half of a CRLF still in flight
        if (buffer[end] === '\r' && end + 1 === buffer.length) break
        buffer = buffer.slice(end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1))
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') }
          event = ''
          data = []
          continue
        }
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        let value = colon < 0 ? '' : line.slice(colon + 1)
        if (value.startsWith(' ')) value = value.slice(1)
        if (field === 'data') data.push(value)
        else if (field === 'event') event = value
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}

function lineEnd(text: string): number {
  const lf = text.indexOf('\n')
  const cr = text.indexOf('\r')
  return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr)
}
