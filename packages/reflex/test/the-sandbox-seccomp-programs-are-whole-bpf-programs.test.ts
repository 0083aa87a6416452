// The seccomp programs bubblewrap loads are raw `struct sock_filter` arrays: 8 bytes an
// instruction, each program opening with the architecture check and closing with a return.
// What they refuse is proven in the executor's sandbox tests, where bubblewrap runs them.
import { sandboxSeccompFilters } from '@ganglion/reflex'
import t from 'tap'

const LD_ABS = 0x20
const RET = 0x06

t.test('two programs of whole instructions, each checking the architecture first', async (t) => {
  const programs = sandboxSeccompFilters()
  t.equal(programs.length, 2)
  for (const program of programs) {
    t.equal(program.length % 8, 0, 'whole instructions')
    t.ok(program.length / 8 <= 4096, 'within the kernel limit of 4096 instructions')
    t.equal(program.readUInt16LE(0), LD_ABS, 'loads a field of seccomp_data')
    t.equal(program.readUInt32LE(4), 4, 'the architecture')
    t.equal(program.readUInt16LE(program.length - 8), RET, 'ends with a return')
  }
})

t.test('each call builds the same programs', async (t) => {
  t.same(sandboxSeccompFilters(), sandboxSeccompFilters())
})
