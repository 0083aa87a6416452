import t from 'tap'
import { Value } from 'typebox/value'

import { ArmCapability } from '../../../src/arms/contract.js'
import { createGuardianArm } from '../../../src/arms/guardian/guardian-arm.js'
import { createJudgeArm } from '../../../src/arms/judge/judge-arm.js'
import { detector } from './guardian-fixture.js'

t.test('the judge and the guardian describe themselves as the contract asks', async (t) => {
  const tools = { judge: ['validate'], guardian: ['scrub', 'screen'] }
  for (const arm of [createJudgeArm(), createGuardianArm({ detector })]) {
    const capability = { ...arm.capability, endpoint: 'in-process' }
    t.ok(Value.Check(ArmCapability, capability), `${arm.name}: ${Value.Errors(ArmCapability, capability)[0]?.message ?? 'valid'}`)
    t.same(arm.capability.capabilities, tools[arm.name as keyof typeof tools], `${arm.name} offers exactly its tools`)
  }
})
