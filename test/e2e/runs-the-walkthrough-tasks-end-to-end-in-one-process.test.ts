// The end-to-end tasks on `npm start` defaults: one process, PGlite, the arms in-process, the
// offline model. The split deployment test runs the same scenarios across separate processes.
import t from 'tap'
import { startGanglion } from './e2e-fixture.js'
import { SCENARIOS } from './scenarios.js'

// Eight processes (or one with seven scenarios) on two cores: longer than .taprc's 120 s per file.
t.setTimeout(300_000)

t.test('on npm start defaults', async (t) => {
  const base = await startGanglion(t)
  for (const [name, scenario] of SCENARIOS) t.test(name, (t) => scenario(t, base))
})
