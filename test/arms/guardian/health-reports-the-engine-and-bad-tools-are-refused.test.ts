import t from 'tap'

import { createGuardianArm } from '../../../src/arms/guardian/guardian-arm.js'
import { detector, guardError } from './guardian-fixture.js'

t.test('health asks the detector and reports its block level', async (t) => {
  const arm = createGuardianArm({ detector, blockLevel: 'medium' })
  t.match(await arm.health!(), { status: 'healthy', checks: { engine: { ok: true, block_level: 'medium' } } })
})

t.test('a tool the guardian does not offer is TOOL_UNKNOWN; a bad block level fails at construction', async (t) => {
  t.match(await guardError({ tool: 'redact' as 'scrub' }), { code: 'TOOL_UNKNOWN', message: /no tool 'redact' \(scrub, screen\)/ })
  t.throws(() => createGuardianArm({ detector, blockLevel: 'severe' as 'high' }), RangeError)
})
