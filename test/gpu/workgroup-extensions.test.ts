/**
 * The workgroup extensions of gpu.js (src/backends/webgpu/gpujs-extensions.ts): a workgroup size, workgroup
 * arrays with barriers, and atomic array arguments — checked on whatever adapter runs the tests (llvmpipe in CI).
 */
import { describe, expect, it } from 'vitest';
import { getProgram, submitPasses } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, readWords } from '../../src/backends/webgpu/runtime.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('gpu.js workgroup extensions', () => {
  it('tree-sums each workgroup through workgroup memory and barriers, and hands out distinct tickets through an atomic counter', async () => {
    const rt = await requireRuntime();
    const size = 128;
    const groups = 5;
    // Thread t: X[t] into mp_shared0; halving tree sum; the first thread of the group takes a ticket.
    const source = `function (X, CAtomic) {
const l = mpLocalId();
mpSharedSet(0, l, X[this.thread.x]);
mpBarrier();
for (let h = mpI32(${size / 2}); h > 0; h = mpIdiv(h, 2)) {
  if (l < h) { mpSharedSet(0, l, mpShared(0, l) + mpShared(0, l + h)); }
  mpBarrier();
}
if (l === 0) { mpSharedIntSet(1, 0, mpAtomicAdd(CAtomic[0], 1)); }
const ticket = mpSharedIntUniform(1, 0);
let v = 0.0;
if (l === 0) { v = mpShared(0, 0); }
if (l === 1) { v = mpFloat(ticket); }
return v;
}`;
    const program = await getProgram(rt.context, {
      source,
      args: [['X', 'Array'], ['CAtomic', 'Array']],
      components: 1,
      workgroup: { workgroupSize: size, workgroupArrays: [{ type: 'f32', length: size }, { type: 'i32', length: 1 }] },
    });
    expect(program.wgsl).toContain('var<workgroup> mp_shared0 : array<f32, 128>;');
    expect(program.wgsl).toContain('var<storage, read_write> user_CAtomic : array<atomic<u32>>;');
    const n = size * groups;
    // Small integers: every partial sum is exact in binary32, so the tree's order does not matter.
    const values = Float32Array.from({ length: n }, (_, k) => (k * 7) % 13);
    const X = createWordBuffer(rt.context, n, values);
    const counter = createWordBuffer(rt.context, 4, new Uint32Array([10, 0, 0, 0]));
    const out = createWordBuffer(rt.context, n);
    submitPasses(rt.context, [{ pass: { program, arrays: { X: { buffer: X }, CAtomic: { buffer: counter } }, scalars: {}, output: { buffer: out }, threads: n } }]);
    const got = new Float32Array((await readWords(rt.context, out, n)).buffer);
    const tickets = new Int32Array((await readWords(rt.context, out, n)).buffer);
    const seen: number[] = [];
    for (let g = 0; g < groups; g++) {
      let sum = 0;
      for (let k = 0; k < size; k++) sum += values[g * size + k]!;
      expect(got[g * size]).toBe(sum);
      seen.push(tickets[g * size + 1]!);
    }
    expect(seen.sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14]);
    expect((await readWords(rt.context, counter, 1))[0]).toBe(10 + groups);
    for (const b of [X, counter, out]) b.destroy();
  });

  it('refuses a pass of a workgroup program that is not whole workgroups', async () => {
    const rt = await requireRuntime();
    const program = await getProgram(rt.context, { source: 'function (X) { return mpFloat(mpLocalId()); }', args: [['X', 'Array']], components: 1, workgroup: { workgroupSize: 128, workgroupArrays: [] } });
    const X = createWordBuffer(rt.context, 4);
    expect(() => submitPasses(rt.context, [{ pass: { program, arrays: { X: { buffer: X } }, scalars: {}, output: { buffer: X }, threads: 100 } }])).toThrow(/whole workgroups/);
    X.destroy();
  });
});
