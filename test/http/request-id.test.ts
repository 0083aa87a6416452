import t from 'tap'
import { isValidRequestId, requestIdFrom } from '../../src/http/request-id.js'

t.test('keeps printable ids up to 200 characters and replaces the rest', async (t) => {
  t.equal(requestIdFrom('abc-123'), 'abc-123')
  t.equal(requestIdFrom('a b'), 'a b')
  for (const bad of ['', ' a', 'a ', 'a\nb', 'a\tb', 'é', 'x'.repeat(201)])
    t.notOk(isValidRequestId(bad) && bad !== '', JSON.stringify(bad))
  t.match(requestIdFrom(undefined), /^[0-9a-f-]{36}$/)
  t.match(requestIdFrom('a\r\nSet-Cookie: x'), /^[0-9a-f-]{36}$/)
})
