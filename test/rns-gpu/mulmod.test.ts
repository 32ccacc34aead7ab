import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createWordBuffer, readWords } from '../../src/backends/webgpu/runtime.js';
import { getProgram, submitPasses } from '../../src/backends/webgpu/program.js';
import { rnsDeviceSet, WORD_BIAS } from '../../src/formats/rns/gpu/device-set.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

describe('mpMulModR, mpMulMod and mpResidue64 on the device', () => {
  it('|a·b|_m (float quotient estimate with fl(1/m), one correction; and u32 %), |h·2^32 + l|_m and |v|_m = mpMulModR(v, 1) for any u32 v are exact for the device moduli', async () => {
    const rt = await requireRuntime();
    const moduli = rnsDeviceSet(4096).moduli; // every prime the sets use
    const program = await getProgram(rt.context, {
      source: `function (A, Bv, Mm, Hh, Ll, Rr) { const t = this.thread.x; const u = mpIdiv(t, 4);
if (t - 4 * u === 3) { return mpFloat(mpMulModR(mpBits(Ll[u]), 1, mpBits(Mm[u]), Rr[u]) + ${WORD_BIAS}); }
if (t - 4 * u === 0) { return mpFloat(mpMulModR(mpBits(A[u]), mpBits(Bv[u]), mpBits(Mm[u]), Rr[u]) + ${WORD_BIAS}); }
if (t - 4 * u === 1) { return mpFloat(mpMulMod(mpBits(A[u]), mpBits(Bv[u]), mpBits(Mm[u])) + ${WORD_BIAS}); }
return mpFloat(mpResidue64(mpBits(Hh[u]), mpBits(Ll[u]), mpBits(Mm[u])) + ${WORD_BIAS}); }`,
      args: [['A', 'Array'], ['Bv', 'Array'], ['Mm', 'Array'], ['Hh', 'Array'], ['Ll', 'Array'], ['Rr', 'Array']],
      components: 1,
    });
    const triple = fc.integer({ min: 0, max: moduli.length - 1 }).chain((k) => {
      const m = moduli[k]!;
      const r = fc.oneof(fc.integer({ min: 0, max: m - 1 }), fc.constantFrom(0, 1, m - 1, m - 2));
      return fc.tuple(fc.constant(m), r, r, fc.integer({ min: 0, max: 2 ** 21 - 1 }), fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(2 ** 32 - 1, 2 ** 31, 2 ** 31 - 1, m, 2 ** 32 - m)));
    });
    await fc.assert(fc.asyncProperty(fc.array(triple, { minLength: 1, maxLength: 500 }), async (cases) => {
      const col = (f: (c: (typeof cases)[number]) => number): Uint32Array => Uint32Array.from(cases, f);
      const recip = new Uint32Array(new Float32Array(cases.map((c) => 1 / c[0])).buffer); // fl(1/m), as the table holds it
      const bufs = [col((c) => c[1]), col((c) => c[2]), col((c) => c[0]), col((c) => c[3]), col((c) => c[4]), recip].map((w) => createWordBuffer(rt.context, w.length, w));
      const out = createWordBuffer(rt.context, 4 * cases.length);
      submitPasses(rt.context, [{ pass: { program, arrays: { A: { buffer: bufs[0]! }, Bv: { buffer: bufs[1]! }, Mm: { buffer: bufs[2]! }, Hh: { buffer: bufs[3]! }, Ll: { buffer: bufs[4]! }, Rr: { buffer: bufs[5]! } }, scalars: {}, output: { buffer: out }, threads: 4 * cases.length } }]);
      const got = await readWords(rt.context, out, 4 * cases.length);
      cases.forEach(([m, a, b, h, l], u) => {
        const want = Number((BigInt(a) * BigInt(b)) % BigInt(m));
        expect(got[4 * u]! - WORD_BIAS).toBe(want);
        expect(got[4 * u + 1]! - WORD_BIAS).toBe(want);
        expect(got[4 * u + 2]! - WORD_BIAS).toBe(Number(((BigInt(h) << 32n) + BigInt(l)) % BigInt(m)));
        expect(got[4 * u + 3]! - WORD_BIAS).toBe(l % m);
      });
      [...bufs, out].forEach((x) => x.destroy());
    }), { numRuns: 20 });
  });
});
