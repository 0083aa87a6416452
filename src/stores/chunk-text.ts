/**
 * Splits a document into chunks for the knowledge store: about `maxChars` each, cut at paragraph
 * breaks where possible, else at sentence ends, else between words, with a little of the previous
 * chunk repeated at the start of the next so a sentence cut in two is still found whole.
 *
 * ```ts
 * chunkText(longText)                              // [{ text, start }, …], each ≤ 1,000 chars
 * chunkText(longText, { maxChars: 500, overlapChars: 80 })
 * ```
 *
 * `start` is where the chunk's own text (after the repeated overlap) begins in the original, in
 * UTF-16 code units. A chunk is a span of the original: white space inside it is kept as written.
 */
import { type Span, sentenceBreaks, spaceRuns } from '../text-scan.js'

export interface ChunkOptions {
  /** Upper bound of a chunk's length, overlap included. Default 1,000. */
  maxChars?: number
  /** Characters of the previous chunk repeated at most, whole sentences or words. Default 150. */
  overlapChars?: number
}

export interface TextChunk {
  text: string
  start: number
}

export const CHUNK_DEFAULTS = { maxChars: 1000, overlapChars: 150 } as const

interface Piece {
  text: string
  start: number
}

const PARAGRAPH_BREAK = /\n[ \t]*\n\s*/g
const paragraphBreaks = (text: string): Span[] => [...text.matchAll(PARAGRAPH_BREAK)].map((m) => ({ index: m.index, length: m[0].length }))
// a sentence end with up to three closing quotes or brackets after it
export const sentenceEnds = (text: string): Span[] => sentenceBreaks(text, '.!?。！？')

export function chunkText(text: string, opts: ChunkOptions = {}): TextChunk[] {
  const max = opts.maxChars ?? CHUNK_DEFAULTS.maxChars
  const overlap = Math.min(opts.overlapChars ?? CHUNK_DEFAULTS.overlapChars, Math.floor(max / 2))
  if (max < 20) throw new RangeError('chunkText: maxChars must be at least 20')

  // Pieces are in order and a chunk is a run of them, so its text is the original span: the
  // white space between pieces (paragraph breaks included) is kept as written.
  const pieces = split({ text, start: 0 }, max)
  const chunks: TextChunk[] = []
  let first = 0 // index of the chunk's first piece, overlap included
  let own = 0 // index of its first piece not carried over from the previous chunk
  const span = (from: number, to: number) => end(pieces[to]!) - pieces[from]!.start
  for (let i = 0; i < pieces.length; i++) {
    if (i > own && span(first, i) > max) {
      chunks.push({ text: text.slice(pieces[first]!.start, end(pieces[i - 1]!)), start: pieces[own]!.start })
      // Carry the last pieces that fit in `overlap`, and only as many as leave room for piece i.
      first = i
      while (first > own && end(pieces[i - 1]!) - pieces[first - 1]!.start <= overlap && span(first - 1, i) <= max) first--
      own = i
    }
  }
  if (own < pieces.length)
    chunks.push({ text: text.slice(pieces[first]!.start, end(pieces[pieces.length - 1]!)), start: pieces[own]!.start })
  return chunks
}

function end(p: Piece): number {
  return p.start + p.text.length
}

/**
 * Pieces no longer than `max`, finest needed: paragraphs; a long paragraph as sentences; a long
 * sentence as runs of words; a long word cut hard. Small neighbours are joined again by packing.
 */
function split(piece: Piece, max: number): Piece[] {
  const out: Piece[] = []
  for (const para of splitBy(piece, paragraphBreaks)) {
    if (para.text.length <= max) {
      out.push(para)
      continue
    }
    for (const sentence of splitBy(para, sentenceEnds)) {
      if (sentence.text.length <= max) out.push(sentence)
      else out.push(...splitWords(sentence, max))
    }
  }
  return out
}

/** `piece` split at each separator `separators` finds, trimmed, empty parts dropped. */
function splitBy(piece: Piece, separators: (text: string) => Span[]): Piece[] {
  const out: Piece[] = []
  let from = 0
  const push = (to: number) => {
    const raw = piece.text.slice(from, to)
    const lead = raw.length - raw.trimStart().length
    const text = raw.trim()
    if (text !== '') out.push({ text, start: piece.start + from + lead })
  }
  for (const m of separators(piece.text)) {
    push(m.index)
    from = m.index + m.length
  }
  push(piece.text.length)
  return out
}

function splitWords(piece: Piece, max: number): Piece[] {
  const out: Piece[] = []
  for (const word of splitBy(piece, spaceRuns)) {
    for (let at = 0; at < word.text.length; at += max) out.push({ text: word.text.slice(at, at + max), start: word.start + at })
  }
  // Words are packed back into runs by chunkText; here only a word longer than `max` is cut.
  return out
}
