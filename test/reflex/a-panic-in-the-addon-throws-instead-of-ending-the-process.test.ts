/**
 * A panic in the native addon is a bug, but it must not take the service down with it: every
 * export catches it and throws a JavaScript error (napi-rs `catch_unwind`), and work on the libuv
 * pool rejects its promise. Without that, Rust aborts the process when a panic reaches the
 * boundary, and this file would end without a result. (An e-mail address cut mid-character once
 * panicked that way.)
 */
import t from 'tap'
import { panicForTests, panicOnPoolForTests } from '#bindings'
import { createEngine } from '../../src/reflex/engine.js'

t.test('a panic on the calling thread throws, and the addon goes on answering', async (t) => {
  t.throws(() => panicForTests('boom on the main thread'), { message: /boom on the main thread/ })
  const engine = createEngine()
  t.equal(engine.check('mail ada@example.com', { useCache: false }).piiMatches[0]?.type, 'EMAIL')
})

t.test('a panic on the libuv pool rejects the promise, and the pool goes on working', async (t) => {
  await t.rejects(panicOnPoolForTests('boom on the pool'), { message: /boom on the pool/ })
  const engine = createEngine()
  const result = await engine.checkAsync('mail ada@example.com', { useCache: false })
  t.equal(result.piiMatches[0]?.type, 'EMAIL')
})
