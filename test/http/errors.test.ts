import t from 'tap'
import { ERROR_CATALOGUE, errorBody, HttpError } from '../../src/http/errors.js'

t.test('maps each code to its status', async (t) => {
  const statuses = Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status]))
  t.same(statuses, {
    VALIDATION_ERROR: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    TIMEOUT: 408,
    CONFLICT: 409,
    PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    RATE_LIMIT: 429,
    INTERNAL_ERROR: 500,
    SERVICE_UNAVAILABLE: 503,
  })
})

t.test('builds the error object of the spec', async (t) => {
  t.same(errorBody(HttpError.validation('text', 'must be a string'), 'r1'), {
    error: {
      code: 'VALIDATION_ERROR',
      message: 'Invalid request: text must be a string',
      details: { field: 'text', constraint: 'must be a string' },
      request_id: 'r1',
    },
  })
  t.same(errorBody(HttpError.notFound('key'), 'r2').error.details.field, 'key')
  t.equal(HttpError.methodNotAllowed('PUT', ['GET', 'DELETE']).headers?.allow, 'GET, DELETE')
  t.equal(HttpError.unavailable('database').status, 503)
})

t.test('turns anything else into a generic 500 that leaks nothing', async (t) => {
  const body = errorBody(new Error('ECONNREFUSED 10.0.0.5:5432'), 'r3')
  t.same(body, { error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: {}, request_id: 'r3' } })
  t.equal(errorBody('a string', 'r4').error.code, 'INTERNAL_ERROR')
})
