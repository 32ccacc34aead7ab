import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createWordBuffer, readWords } from '../../src/backends/webgpu/runtime.js';
import { submitPasses } from '../../src/backends/webgpu/program.js';
import { rnsDeviceSet, WORD_BIAS } from '../../src/formats/rns/gpu/device-set.js';
import { decodeWords, rnsToDevice } from '../../src/formats/rns/gpu/rns-device-array.js';
import { accumulatorWords, columnWords, normalizePasses, normalizePrograms } from '../../src/formats/rns/gpu/normalize-webgpu.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

function roundHalfEven(v: bigint, k: number): bigint {
  if (k <= 0) return v;
  const q = v >> BigInt(k);
  const r = v - (q << BigInt(k));
  const half = 1n << BigInt(k - 1);
  return r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
}

describe('device rounding of a signed accumulator', () => {
  for (const p of [106, 424, 1696]) {
    it(`rounds |X̃| ≤ M/4 to ${p} bits (nearest, ties to even) with an enclosing evaluation (bounded by β)`, async () => {
      const rt = await requireRuntime();
      const set = rnsDeviceSet(p);
      const n = set.size;
      const progs = await normalizePrograms(rt, set);
      const table = createWordBuffer(rt.context, set.table.length, set.table);
      const quarter = set.M / 4n;
      const W = accumulatorWords(set);
      await fc.assert(fc.asyncProperty(
        // slack: how far the bit bound β lies above |X̃|'s bit length (clamped to bitsM − 3, its largest value).
        fc.array(fc.record({ bits: fc.integer({ min: 0, max: set.bitsM - 3 }), r: fc.bigInt({ min: 0n, max: quarter }), neg: fc.boolean(), tie: fc.boolean(), G: fc.integer({ min: -5000, max: 5000 }), slack: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 }), fc.constant(set.bitsM)) }), { minLength: 1, maxLength: 5 }),
        async (cases) => {
          const L = cases.length;
          const acc = new Uint32Array(W * L);
          const want: { X: bigint; sign: number; exp: number; V: bigint }[] = [];
          cases.forEach((c, e) => {
            let V = c.r % (1n << BigInt(c.bits));
            if (c.tie && c.bits > p + 2) V = ((V >> BigInt(c.bits - p - 1)) << BigInt(c.bits - p - 1)) | (1n << BigInt(c.bits - p - 2)); // exact half-way cases
            const Xs = c.neg ? -V : V;
            for (let i = 0; i < n; i++) {
              const m = BigInt(set.moduli[i]!);
              const r = ((Xs % m) + m) % m;
              acc[e * n + i] = Number(r) + WORD_BIAS;
            }
            const b = V.toString(2).length * (V === 0n ? 0 : 1);
            acc[n * L + e] = c.G + WORD_BIAS;
            acc[n * L + L + e] = (c.neg ? 1 : 0) + WORD_BIAS;
            acc[n * L + 2 * L + e] = Math.min(b + c.slack, set.bitsM - 3) + WORD_BIAS; // |X̃| < 2^β
            const k = Math.max(0, b - p);
            want.push({ X: roundHalfEven(V, k), sign: V === 0n ? (c.neg ? 1 : 0) : c.neg ? 1 : 0, exp: V === 0n ? 0 : c.G + k, V });
          });
          const accBuf = createWordBuffer(rt.context, acc.length, acc);
          const columns = createWordBuffer(rt.context, columnWords(progs, set, L));
          const sizes = createWordBuffer(rt.context, 4 * L);
          const out = createWordBuffer(rt.context, (n + 6) * L);
          submitPasses(rt.context, normalizePasses(progs, set, accBuf, L, { columns, sizes }, table, out).map((pass) => ({ pass })));
          const words = await readWords(rt.context, out, (n + 6) * L);
          const got = decodeWords(set, L, words);
          for (let e = 0; e < L; e++) {
            expect(got[e]!.X).toBe(want[e]!.X);
            expect(got[e]!.sign).toBe(want[e]!.sign);
            expect(got[e]!.exp).toBe(want[e]!.exp);
            const f = (j: number): number => words[n * L + j * L + e]! - WORD_BIAS;
            const [lo, E, up] = [f(2), f(3), f(4)];
            expect(f(5)).toBe(E);
            const X = got[e]!.X;
            if (X === 0n) { expect([lo, up]).toEqual([0, 0]); continue; }
            // lo·2^E ≤ X/M ≤ up·2^E, exactly: scale by 2^-E (E < 0 here).
            const s = BigInt(-E);
            expect(BigInt(lo) * set.M <= X << s).toBe(true);
            expect(X << s <= BigInt(up) * set.M).toBe(true);
          }
          [accBuf, columns, sizes, out].forEach((b) => b.destroy());
        }), { numRuns: p === 1696 ? 6 : 15 });
      table.destroy();
    });
  }
});

describe('the prefix levels of a device moduli set', () => {
  it('ascend to the whole set, and each level\'s capacity bitsM\' − 3 leaves |X̃| ≤ M\'/4', () => {
    for (const p of [53, 106, 120, 424, 1696, 4096]) {
      const set = rnsDeviceSet(p);
      const lv = set.levels;
      expect(lv.length).toBeLessThanOrEqual(17);
      expect(lv.at(-1)!.size).toBe(set.size);
      expect(lv.at(-1)!.bitsM).toBe(set.bitsM);
      let M = 1n, prev = 0;
      for (const [λ, l] of lv.entries()) {
        expect(l.size).toBeGreaterThan(prev);
        for (let i = prev; i < l.size; i++) M *= BigInt(set.moduli[i]!);
        prev = l.size;
        expect(l.bitsM).toBe(M.toString(2).length);
        expect(1n << BigInt(l.bitsM - 3 + 2) <= M).toBe(true);
        expect(l.limbs).toBe(Math.ceil(l.bitsM / 16));
        // The table's copy: n', limbs, capacity, and the level's w' and limbs of M'/m_i and M'.
        const at = set.offsets.levels + 4 * λ;
        expect([...set.table.subarray(at, at + 3)]).toEqual([l.size, l.limbs, l.bitsM - 3]);
        const data = set.table[at + 3]!;
        const limbsOf = (v: bigint): number[] => Array.from({ length: l.limbs }, (_, j) => Number((v >> BigInt(16 * j)) & 0xffffn));
        for (const i of [0, l.size - 1]) {
          const m = BigInt(set.moduli[i]!), Mi = M / m;
          expect((BigInt(set.table[data + i]!) * Mi) % m).toBe(1n);
          expect([...set.table.subarray(data + l.size + i * l.limbs, data + l.size + (i + 1) * l.limbs)]).toEqual(limbsOf(Mi));
        }
        expect([...set.table.subarray(data + l.size + l.size * l.limbs, data + l.size + l.size * l.limbs + l.limbs)]).toEqual(limbsOf(M));
      }
    }
  });
});

describe('exact transfers between the CPU mp_array and the device', () => {
  it('toExact(indices) reads a few elements alone and gives what the whole array\'s read gives', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const value = fc.record({ X: fc.bigInt({ min: 0n, max: 1n << 106n }), exp: fc.integer({ min: -3000, max: 3000 }), sign: fc.constantFrom(0 as const, 1 as const) });
    await fc.assert(fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 60 }).chain((vals) => fc.tuple(fc.constant(vals), fc.array(fc.nat(vals.length - 1), { maxLength: Math.max(1, vals.length >> 2) }))), async ([vals, indices]) => {
      const d = await rnsToDevice(vals, set);
      const all = await d.toExact();
      expect(await d.toExact(indices)).toEqual(indices.map((k) => all[k]));
      d.destroy();
    }), { numRuns: 25 });
  });

  it('CPU RnsArray → device → CPU RnsArray keeps every value (106 … 1696 bits)', async () => {
    await requireRuntime();
    const { RnsArray, rnsLoad } = await import('../../src/formats/rns/rns-array.js');
    const { rnsModuliSet } = await import('../../src/formats/rns/moduli-set.js');
    const { rnsZero } = await import('../../src/formats/rns/rns-number-class.js');
    const { rnsFromRational, rnsToRational } = await import('../../src/formats/rns/convert-exact.js');
    const { rnsStore } = await import('../../src/formats/rns/array-store.js');
    const { rnsArrayToDevice, rnsDeviceToArray } = await import('../../src/formats/rns/gpu/cpu-arrays.js');
    for (const p of [106, 424, 1696]) {
      const cpu = rnsModuliSet(p);
      await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.bigInt({ min: -(1n << BigInt(p + 40)), max: 1n << BigInt(p + 40) }), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 6 }), async (vals) => {
        const a = new RnsArray(cpu, vals.length);
        const z = rnsZero(cpu);
        vals.forEach(([num, s], k) => { rnsFromRational(z, num, 1n << BigInt(s)); rnsStore(a, k, z); });
        const d = await rnsArrayToDevice(a);
        const back = await rnsDeviceToArray(d, cpu);
        const u = rnsZero(cpu);
        for (let k = 0; k < vals.length; k++) {
          rnsLoad(z, a, k); rnsLoad(u, back, k);
          const r1 = rnsToRational(z), r2 = rnsToRational(u);
          expect(r1.num * r2.den).toBe(r2.num * r1.den);
          expect(u.sign).toBe(z.sign);
        }
        d.destroy();
      }), { numRuns: 5 });
    }
  });
});

describe('uploading doubles', () => {
  it('every finite double (subnormals, ±0, extremes) comes back as its exact value; non-finite ones are refused first', async () => {
    await requireRuntime();
    const { rnsToDevice } = await import('../../src/formats/rns/gpu/rns-device-array.js');
    const set = rnsDeviceSet(106);
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, 0, 5e-324, -Number.MAX_VALUE, 2 ** -1022)), { minLength: 1, maxLength: 20 }), async (xs) => {
      const d = await rnsToDevice(xs, set);
      const got = await d.toExact();
      xs.forEach((x, k) => {
        const g = got[k]!;
        expect(g.sign).toBe(x < 0 || Object.is(x, -0) ? 1 : 0);
        // X·2^e == |x| exactly: compare as dyadic rationals.
        const e = g.exp;
        const viaNumber = Number(g.X) * 2 ** e; // X < 2^53: Number(X) exact; the scaling is exact unless it underflows
        if (x !== 0 && Math.abs(x) > 2 ** -1000) expect(viaNumber).toBe(Math.abs(x));
        if (x === 0) expect(g.X).toBe(0n);
      });
      d.destroy();
    }), { numRuns: 20 });
    await expect(rnsToDevice([1, NaN], set)).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'x' });
    await expect(rnsToDevice([Infinity], set)).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'x' });
  });
});
