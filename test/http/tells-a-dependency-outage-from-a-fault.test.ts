// dependencyOutage reads real errors: a refused connection, a server shutting down, Redis out of
// reach are outages of a named dependency (503); an error the database answered, or a plain bug,
// is not (500). The PostgreSQL errors are the driver's own, from a closed port and a live server.
import pg from 'pg'
import t from 'tap'
import { dependencyOutage } from '../../src/http/dependency-outage.js'
import { HttpError, toHttpError } from '../../src/http/errors.js'
import { RedisUnavailableError } from '../../src/stores/redis-client.js'
import { freePort } from '../helpers/free-port.js'
import { DATABASE_URL, SKIP_PG } from '../stores/pg-schema.js'

t.test('a refused connection is the database down, a 503 with Retry-After', async (t) => {
  const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x`, max: 1 })
  t.teardown(() => pool.end())
  const err = await pool.query('select 1').catch((e: unknown) => e)
  t.equal(dependencyOutage(err), 'database')
  const http = toHttpError(err)
  t.match(http, { status: 503, code: 'SERVICE_UNAVAILABLE', details: { field: 'database', constraint: 'must be reachable' } })
  t.same(http.headers, { 'retry-after': '5' })
})

t.test('an error the database answered is no outage', { skip: SKIP_PG }, async (t) => {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 })
  t.teardown(() => pool.end())
  const err = await pool.query('select * from no_such_table_anywhere').catch((e: unknown) => e)
  t.equal((err as { code?: string }).code, '42P01')
  t.equal(dependencyOutage(err), undefined)
  t.equal(toHttpError(err).status, 500)
})

t.test('server-side shutdown codes, driver messages, causes and Redis', async (t) => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code })
  t.equal(dependencyOutage(coded('57P01', 'terminating connection due to administrator command')), 'database')
  t.equal(dependencyOutage(coded('08006')), 'database')
  t.equal(dependencyOutage(coded('53300')), 'database')
  t.equal(dependencyOutage(new Error('Connection terminated unexpectedly')), 'database')
  t.equal(dependencyOutage(new Error('wrapped', { cause: coded('ECONNRESET') })), 'database', 'a cause is read')
  t.equal(dependencyOutage(new AggregateError([new Error('a'), coded('ECONNREFUSED')])), 'database', 'an aggregate is read')
  t.equal(dependencyOutage(new RedisUnavailableError('redis unavailable (end)')), 'redis')
  t.equal(toHttpError(new RedisUnavailableError('x')).details.field, 'redis')
})

t.test('bugs, odd values and deep chains are not outages', async (t) => {
  t.equal(dependencyOutage(new TypeError("Cannot read properties of undefined (reading 'x')")), undefined)
  t.equal(dependencyOutage(Object.assign(new Error('unique'), { code: '23505' })), undefined)
  for (const odd of [null, undefined, 'ECONNREFUSED', 42, { code: 7 }, { message: {} }]) t.equal(dependencyOutage(odd), undefined)
  // a cause cycle is followed only a few levels
  const a: { cause?: unknown } = new Error('a')
  a.cause = a
  t.equal(dependencyOutage(a), undefined)
  let deep: unknown = Object.assign(new Error('deep'), { code: 'ECONNREFUSED' })
  for (let i = 0; i < 10; i++) deep = new Error('wrap', { cause: deep })
  t.equal(dependencyOutage(deep), undefined, 'past four levels a cause is not read')
  t.equal(toHttpError(new Error('boom')).status, 500)
  t.ok(toHttpError(HttpError.conflict()) instanceof HttpError)
})
