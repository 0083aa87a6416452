import t from 'tap'
import { createEngine, ENGINE_ERRORS } from '../../src/reflex/engine.js'

t.test('an unknown block level is refused with a stable code', async (t) => {
  t.throws(() => createEngine({ blockLevel: 'severe' as never }), { code: ENGINE_ERRORS.invalidOption })
})
