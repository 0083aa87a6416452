/**
 * `POST /filter/pii` (detect and redact personal data in a chosen mode) and `POST /preprocess`
 * (the full check plus `output`, the redacted text, for earlier clients).
 */
import { performance } from 'node:perf_hooks'
import type { Ctx, Reply } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { compileSchema } from '../http/validate.js'
import { runCheck } from './check-route.js'
import type { ReflexDeps } from './deps.js'
import { FilterPiiRequest, PreprocessRequest } from './schemas.js'

const parseFilter = compileSchema(FilterPiiRequest)
const parsePreprocess = compileSchema(PreprocessRequest)

export function filterPiiRoute(deps: ReflexDeps) {
  return async (ctx: Ctx): Promise<Reply> => {
    const req = parseFilter(ctx.body)
    const mode = req.mode ?? 'placeholder'
    const out = deps.detector.redact(req.text, {
      mode,
      keepLast: req.keep_last,
      salt: deps.hashSalt,
      ...(req.pii_threshold !== undefined && { piiThreshold: req.pii_threshold }),
    })
    return { status: 200, body: { request_id: ctx.requestId, mode, ...out } }
  }
}

export function preprocessRoute(deps: ReflexDeps) {
  return async (ctx: Ctx): Promise<Reply> => {
    const started = performance.now()
    const req = parsePreprocess(ctx.body)
    const text = req.input ?? req.text
    if (text === undefined) throw HttpError.validation('input', 'must have required property input (or text)')
    if (req.input !== undefined && req.text !== undefined && req.input !== req.text) {
      throw HttpError.validation('text', 'must equal input when both are sent')
    }
    const body = await runCheck(deps, ctx, { ...req, text }, started)
    // `output` is the redacted text under the name earlier preprocess clients read.
    return { status: 200, body: { ...body, output: body.redacted_text } }
  }
}
