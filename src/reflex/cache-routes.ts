/**
 * The cache API: `POST /api/v1/cache`, `GET|DELETE /api/v1/cache/:key` and the variant
 * `GET /cache/:key`. Values are any JSON, stored serialised. Each tenant's keys live in a namespace
 * of their own (`pub:<tenant>:<key>` in the tiers), apart from the answers the orchestrator stores
 * (keyed hashes, see `AnswerKeys`): a value stored here is never what a check or a task is
 * answered with, and one tenant never reads or removes another's.
 */
import type { Ctx, Reply } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { compileSchema } from '../http/validate.js'
import { CACHE_ERRORS, CacheError } from '../stores/cache-store.js'
import type { ReflexDeps } from './deps.js'
import { CacheSetRequest, MAX_KEY_CHARS } from './schemas.js'

const parseSet = compileSchema(CacheSetRequest)

function keyParam(ctx: Ctx): string {
  const key = ctx.params.key ?? ''
  if (key.length === 0 || key.length > MAX_KEY_CHARS) {
    throw HttpError.validation('key', `must be 1 to ${MAX_KEY_CHARS} characters`)
  }
  return key
}

/** Where `key` of the caller's tenant lives in the tiers. */
function stored(ctx: Ctx, key: string): string {
  return `pub:${ctx.principal.tenant}:${key}`
}

export function cacheSetRoute(deps: ReflexDeps) {
  return async (ctx: Ctx): Promise<Reply> => {
    const req = parseSet(ctx.body)
    const ttl = req.ttl_seconds ?? deps.cacheTtlSeconds
    let entry
    try {
      entry = await deps.cache.set(stored(ctx, req.key), JSON.stringify(req.value), ttl)
    } catch (err) {
      if (err instanceof CacheError && err.code === CACHE_ERRORS.invalidValue) {
        throw HttpError.validation('value', 'must nest at most 256 levels deep')
      }
      if (err instanceof CacheError && err.code === CACHE_ERRORS.valueTooLarge) {
        throw new HttpError('PAYLOAD_TOO_LARGE', 'The value is larger than the cache takes', {
          field: 'value',
          constraint: 'must fit in the cache tier',
        })
      }
      throw err
    }
    return { status: 201, body: { key: req.key, ttl_seconds: ttl, expires_at: entry.expiresAt.toISOString() } }
  }
}

export function cacheGetRoute(deps: ReflexDeps) {
  return async (ctx: Ctx): Promise<Reply> => {
    const key = keyParam(ctx)
    const entry = await deps.cache.get(stored(ctx, key))
    if (!entry) throw HttpError.notFound('key', `No cache entry for key ${JSON.stringify(key)}`)
    const ttlRemaining = Math.max(0, Math.ceil((entry.expiresAt.getTime() - Date.now()) / 1000))
    return {
      status: 200,
      raw: `{"key":${JSON.stringify(key)},"value":${entry.valueJson},"ttl_remaining_seconds":${ttlRemaining},"created_at":"${entry.createdAt.toISOString()}"}`,
    }
  }
}

export function cacheDeleteRoute(deps: ReflexDeps) {
  return async (ctx: Ctx): Promise<Reply> => {
    const key = keyParam(ctx)
    if (!(await deps.cache.delete(stored(ctx, key)))) throw HttpError.notFound('key', `No cache entry for key ${JSON.stringify(key)}`)
    return { status: 200, body: { key, deleted: true } }
  }
}
