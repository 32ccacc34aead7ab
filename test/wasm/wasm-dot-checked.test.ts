/**
 * The checked fp16·fp16 and bf16·bf16 DOT chunk (kernels/dot/dot-narrow-wasm.ts, `checkedNarrowDotChunk`): it runs
 * to the end on data it handles exactly, stops at the check block before an element it does not (bf16: a product
 * outside binary32's normal range, zero included; fp16: Inf or NaN) and leaves sums that the exact chunk continues;
 * the public DOT in every form (unchecked, checked, lean, lean with lookahead loads, products widened through memory,
 * resumed after a declined block or not), staged and in a wasmArena, bit for bit the documented lane order wherever
 * such elements lie, across check blocks and chunks.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, formats, vector, wasmArena, type Range } from '../../src/index.js';
import { CHECK_BLOCK, NARROW_16_LANES, checkedNarrowDotChunk } from '../../kernels/dot/dot-narrow-wasm.js';
import { setWasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { wasmStorageNamed } from '../../src/backends/wasm/wasm-storage.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { laneOrderDot, readValues } from './wasm-dot-oracles.js';

// Gaps of 16 bytes before x and y (the lean fp16 form reads the 2 bytes before each).
const X_AT = 128, Y_AT = X_AT + 2 * 4096 + 16, SCRATCH = Y_AT + 2 * 4096 + 16;
const ONE = { f16: 0x3c00, bf16: 0x3f80 } as const;

describe('checked 16-bit DOT chunk', () => {
  for (const [name, lean, viaMemory, scaledSums] of [['f16', false, false, false], ['bf16', false, false, false], ['f16', true, false, false], ['bf16', true, false, false], ['f16', true, true, false], ['bf16', true, true, false], ['f16', true, false, true], ['f16', false, false, true]] as const) {
    it(`${name}${lean ? ' (lean form)' : ''}${viaMemory ? ' (products widened from memory)' : ''}${scaledSums ? ' (sums kept scaled)' : ''}: the elements it takes, by bit pattern, and where it stops`, () => {
      const f = checkedNarrowDotChunk(wasmStorageNamed(name)!, false, wasmStorageNamed(name)!, false, SCRATCH, lean, 0, viaMemory, scaledSums)!;
      reserveBytes(SCRATCH + 96);
      const buffer = wasmMemory().buffer as ArrayBuffer;
      const x = new Uint16Array(buffer, X_AT, 4096), y = new Uint16Array(buffer, Y_AT, 4096), acc = new Float64Array(buffer, 0, 8);
      // The lean fp16 form reads the 2 bytes before each operand (the even elements' loads): an Inf and a NaN there
      // must not count.
      new Uint16Array(buffer, X_AT - 2, 1)[0] = name === 'f16' ? 0x7c00 : 0x7f80;
      new Uint16Array(buffer, Y_AT - 2, 1)[0] = name === 'f16' ? 0xfe00 : 0xffc0;
      const decode = (bits: number): number => formats[name].storage.decode(new Uint16Array([bits]) as never, 0) as number;
      // Every pattern in turn in x and then in y, at a position 1000 … 1007 (every lane) of 4096 elements that are
      // otherwise 1.
      for (let bits = 0; bits < 65536; bits++) {
        for (const inX of [true, false]) {
          const at = 1000 + ((inX ? bits : bits >> 3) & 7);
          x.fill(ONE[name]);
          y.fill(ONE[name]);
          (inX ? x : y)[at] = bits;
          acc.fill(0);
          const done = f(X_AT, 1, Y_AT, 1, 4096);
          const v = decode(bits), magnitude = Math.abs(v);
          const handled = name === 'f16' ? Number.isFinite(v) : magnitude >= 2 ** -126 && magnitude < Infinity;
          const where = `pattern 0x${bits.toString(16)} at ${inX ? 'x' : 'y'}[${at}]`;
          if (done !== (handled ? 4096 : Math.floor(at / CHECK_BLOCK) * CHECK_BLOCK)) throw new Error(`${where}: stopped at ${done}`);
          // The committed sums hold exactly the first `done` elements, each lane summed in order.
          const want = Array.from({ length: 8 }, (_, lane) => {
            let sum = 0;
            for (let i = lane; i < done; i += 8) sum += (i === at ? v : 1);
            return sum;
          });
          const got = NARROW_16_LANES.map((m) => acc[m]!);
          if (!got.every((g, lane) => Object.is(g, want[lane]))) throw new Error(`${where}: sums ${got} ≠ ${want}`);
        }
      }
    });
  }

  it('takes only unscaled pairs of one 16-bit float format', () => {
    const s = (n: string) => wasmStorageNamed(n)!;
    expect(checkedNarrowDotChunk(s('bf16'), true, s('bf16'), false, SCRATCH)).toBeNull();
    expect(checkedNarrowDotChunk(s('f16'), false, s('bf16'), false, SCRATCH)).toBeNull();
    expect(checkedNarrowDotChunk(s('i8'), false, s('i8'), false, SCRATCH)).toBeNull();
    expect(checkedNarrowDotChunk(s('f16'), false, s('f16'), false, SCRATCH)).not.toBeNull();
  });
});

describe('DOT of fp16·fp16 and bf16·bf16 through the public API, both forms', () => {
  const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 2 ** -24, -(2 ** -133), 2 ** -140, 65504, 3e38, 1e-40, 2 ** 70, 2 ** -70);
  const input = fc.record({
    name: fc.constantFrom('f16' as const, 'bf16' as const), n: fc.integer({ min: 0, max: 3 * CHECK_BLOCK + 40 }),
    // Where special elements go (positions modulo n): none, one or a few, in x or y.
    specials: fc.array(fc.record({ at: fc.nat(), inX: fc.boolean(), value: special }), { maxLength: 3 }),
    seed: fc.integer({ min: 1, max: 2 ** 30 }), inArena: fc.boolean(), checked: fc.boolean(), lean: fc.boolean(),
    lookahead: fc.constantFrom(0, 64, 1024), promote: fc.constantFrom('shuffle' as const, 'memory' as const), resume: fc.boolean(),
    scaledSums: fc.boolean(),
  });
  it('bit for bit the lane order, special elements anywhere', () => {
    fc.assert(fc.property(input, ({ name, n, specials, seed, inArena, checked, lean, lookahead, promote, resume, scaledSums }) => {
      const values = (k: number): number[] => Array.from({ length: n }, (_, i) => Math.sin(seed + k * 7919 + i) * 3);
      const xs = values(1), ys = values(2);
      for (const s of specials) if (n > 0) (s.inX ? xs : ys)[s.at % n] = s.value;
      const arena = inArena ? wasmArena(4 * n + 4096) : null;
      const make = (v: number[]): Range<1, any> => {
        const r = vector(n, { storage: formats[name], arithmetic: formats.f64, ...(arena ? { memory: arena } : {}) });
        v.forEach((e, i) => r.set(i, e));
        return r;
      };
      const x = make(xs), y = make(ys);
      const previous = setWasmKernelForms({ halfDotChecked: checked, halfDotLean: lean, dotLookahead: lookahead, halfDotPromote: promote, halfDotResume: resume, halfDotScaledSums: scaledSums });
      try {
        const got = dot(x, y, { backend: 'wasm' });
        expect(Object.is(got, laneOrderDot(readValues(x), readValues(y)))).toBe(true);
      } finally { setWasmKernelForms(previous); arena?.release(); }
    }), { numRuns: 200 });
  });

  it('declined blocks here and there: resumed after each, given up where they are many — the same bits', () => {
    // bf16 zeros (declined: a zero product) and fp16 Infs far apart (resumed each time), then a stretch with a zero in
    // every block and one with every other block (given up), staged and in a wasmArena, with and without resuming.
    const n = 64 * CHECK_BLOCK + 24;
    const far = [3, 5 * CHECK_BLOCK + 7, 17 * CHECK_BLOCK + 511, 18 * CHECK_BLOCK];
    for (const name of ['bf16', 'f16'] as const) {
      for (const pattern of ['far', 'every block', 'every other block'] as const) {
        const special = name === 'bf16' ? 0 : (pattern === 'far' ? 0 : Infinity);
        const at = pattern === 'far' ? far : Array.from({ length: 20 }, (_, k) => (20 + k * (pattern === 'every block' ? 1 : 2)) * CHECK_BLOCK - 5 * k);
        for (const inArena of [false, true]) {
          const arena = inArena ? wasmArena(4 * n + 4096) : null;
          const make = (k: number): Range<1, any> => {
            const r = vector(n, { storage: formats[name], arithmetic: formats.f64, ...(arena ? { memory: arena } : {}) });
            for (let i = 0; i < n; i++) r.set(i, Math.sin(i * k) + 0.25);
            return r;
          };
          const x = make(1), y = make(2);
          for (const i of at) (i % 3 === 0 ? y : x).set(i, special);
          // fp16 'far': an Inf far apart instead of zeros (the fp16 chunk takes zeros), one in x and one in y.
          if (name === 'f16' && pattern === 'far') { x.set(far[1]!, Infinity); y.set(far[2]!, -Infinity); x.set(far[3]!, 0); }
          const want = laneOrderDot(readValues(x), readValues(y));
          for (const resume of [true, false]) {
            const previous = setWasmKernelForms({ halfDotResume: resume });
            try { expect(Object.is(dot(x, y, { backend: 'wasm' }), want)).toBe(true); } finally { setWasmKernelForms(previous); }
          }
          arena?.release();
        }
      }
    }
  });

  it('long vectors across chunks, in a wasmArena: one zero late in the second call', () => {
    const n = 3 * 4 * 4096 * 8 + 37;
    for (const name of ['f16', 'bf16'] as const) {
      const big = wasmArena(5 * n + 2 ** 16);
      const x = vector(n, { storage: formats[name], arithmetic: formats.f64, memory: big }), y = vector(n, { storage: formats[name], arithmetic: formats.f64, memory: big });
      for (let i = 0; i < n; i++) { x.set(i, Math.sin(i) + 1.5); y.set(i, Math.cos(i) - 2); }
      x.set(200000, 0);
      const want = laneOrderDot(readValues(x), readValues(y));
      expect(Object.is(dot(x, y, { backend: 'wasm' }), want)).toBe(true);
      // The candidate lookahead loads change nothing.
      const previous = setWasmKernelForms({ dotLookahead: 2048 });
      try { expect(Object.is(dot(x, y, { backend: 'wasm' }), want)).toBe(true); } finally { setWasmKernelForms(previous); }
      big.release();
    }
  });
});
