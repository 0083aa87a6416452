import t from 'tap'
import { fuseRanks, RRF_K } from '../../src/stores/knowledge-store.js'

t.test('an id in both lists beats one first in a single list', async (t) => {
  const fused = fuseRanks([
    ['solo', 'x', 'both'],
    ['y', 'z', 'both'],
  ])
  t.equal(fused[0]!.id, 'both')
  t.same(fused[0]!.ranks, [3, 3])
  t.equal(fused[0]!.score, 2 / (RRF_K + 3))
  t.same(fused.find((f) => f.id === 'solo')!.ranks, [1, null])
})

t.test('ties go to the better best rank, then to the id', async (t) => {
  t.same(
    fuseRanks([
      ['b', 'a'],
      ['a2', 'b2'],
    ]).map((f) => f.id),
    ['a2', 'b', 'a', 'b2'],
  )
  t.same(fuseRanks([[], []]), [])
})

t.test('an id repeated in one list counts once, at its best place', async (t) => {
  const [only] = fuseRanks([['a', 'a']])
  t.same(only, { id: 'a', score: 1 / (RRF_K + 1), ranks: [1] })
})
