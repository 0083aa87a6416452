/**
 * The output policy the guardian enforces, read from the task's `constraints.output_policy`:
 * terms that must not appear in what the task returns, and a cap on the length of each string.
 *
 * ```ts
 * const policy = parseOutputPolicy({ output_policy: { blocked_terms: ['Project Falcon'], max_output_chars: 2000 } })
 * applyPolicy(policy, 'Status of project falcon: green') // { text: 'Status of [blocked]: green', blocked: 1, truncated: false }
 * ```
 *
 * Terms match case-insensitively as whole words (a letter, digit or underscore on either side
 * means no match: `cat` does not block `category`), white space inside a term matching any run of
 * it; where terms overlap, the longest whole-word match at the first place one starts wins. The
 * search is one Aho-Corasick pass in the native addon (`TermMatcher`), linear in the text: 500
 * terms over a 10 MiB output cost what a few terms do. Constraints given as a list of sentences
 * carry no policy; a policy that is not the shape below is INPUT_INVALID, since enforcing half
 * of a mistyped policy would look like enforcing it.
 */
import { TermMatcher } from '@ganglion/reflex'
import Type from 'typebox'

import { checkedInput } from '../contract.js'

export const OutputPolicy = Type.Object(
  {
    blocked_terms: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 })),
    /** Longer string leaves are cut to this many characters, with a marker saying how much went. */
    max_output_chars: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
)
export type OutputPolicy = Type.Static<typeof OutputPolicy>

export interface CompiledPolicy {
  blocked: TermMatcher | undefined
  maxChars: number | undefined
}

export const BLOCKED_MARKER = '[blocked]'

export function parseOutputPolicy(constraints: unknown): CompiledPolicy | undefined {
  if (constraints === null || typeof constraints !== 'object' || Array.isArray(constraints)) return undefined
  const raw = (constraints as Record<string, unknown>).output_policy
  if (raw === undefined) return undefined
  const policy = checkedInput(OutputPolicy, raw, 'constraints.output_policy')
  const terms = (policy.blocked_terms ?? []).map((t) => t.trim()).filter(Boolean)
  return {
    blocked: terms.length > 0 ? new TermMatcher(terms) : undefined,
    maxChars: policy.max_output_chars,
  }
}

export function applyPolicy(policy: CompiledPolicy, text: string): { text: string; blocked: number; truncated: boolean } {
  let blocked = 0
  let out = text
  const found = policy.blocked?.find(text) ?? []
  if (found.length > 0) {
    const parts: string[] = []
    let from = 0
    for (const { start, end } of found) {
      parts.push(text.slice(from, start), BLOCKED_MARKER)
      from = end
    }
    parts.push(text.slice(from))
    out = parts.join('')
    blocked = found.length
  }
  const max = policy.maxChars
  const truncated = max !== undefined && out.length > max
  if (truncated) {
    // never split a surrogate pair: half an emoji is not valid text
    const cut = /[\uD800-\uDBFF]/.test(out[max - 1] ?? '') ? max - 1 : max
    out = `${out.slice(0, cut)}…[truncated: ${out.length - cut} more chars]`
  }
  return { text: out, blocked, truncated }
}
