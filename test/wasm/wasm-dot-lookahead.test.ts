/**
 * The candidate lookahead loads of the DOT chunks (wasmKernelForms().dotLookahead): for every storage pair the
 * WebAssembly DOT reads, staged or in a wasmArena, lengths around the point where the lookahead loop hands over to
 * the plain one, the same bits as without them — the documented lane order (f64 arithmetic) — and no read past the
 * operands (the chunks run on operands that end at the memory's end, where such a read would trap).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, formats, vector, wasmArena, type Range } from '../../src/index.js';
import { setWasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { wasmStorageNamed } from '../../src/backends/wasm/wasm-storage.js';
import { dotChunk } from '../../kernels/dot/dot-wasm.js';
import { checkedNarrowDotChunk } from '../../kernels/dot/dot-narrow-wasm.js';
import { laneOrderDot, readValues } from './wasm-dot-oracles.js';

const STORAGES = ['f64', 'f32', 'bf16', 'f16', 'i16'] as const;

describe('DOT lookahead loads', () => {
  it('same bits as the lane order, every storage pair, staged and in place', () => {
    const input = fc.record({
      xs: fc.constantFrom(...STORAGES), ys: fc.constantFrom(...STORAGES), n: fc.integer({ min: 0, max: 2500 }),
      lookahead: fc.constantFrom(1, 64, 1000, 4096), inArena: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    fc.assert(fc.property(input, ({ xs, ys, n, lookahead, inArena, seed }) => {
      const arena = inArena ? wasmArena(20 * n + 4096) : null;
      const make = (storage: (typeof STORAGES)[number], k: number): Range<1, any> => {
        const r = vector(n, { storage: formats[storage], arithmetic: formats.f64, ...(arena ? { memory: arena } : {}) });
        for (let i = 0; i < n; i++) r.set(i, storage === 'i16' ? Math.round(Math.sin(seed + k + i) * 300) : Math.sin(seed + k * 7919 + i) * 3);
        return r;
      };
      const x = make(xs, 1), y = make(ys, 2);
      const previous = setWasmKernelForms({ dotLookahead: lookahead });
      try {
        expect(Object.is(dot(x, y, { backend: 'wasm' }), laneOrderDot(readValues(x), readValues(y)))).toBe(true);
      } finally { setWasmKernelForms(previous); arena?.release(); }
    }), { numRuns: 150 });
  });

  it('reads nothing past operands that end at the end of the memory (the chunks, directly)', () => {
    reserveBytes(1 << 20);
    const memory = wasmMemory().buffer as ArrayBuffer;
    const end = memory.byteLength;
    for (const name of ['f64', 'f32', 'bf16', 'f16'] as const) {
      const s = wasmStorageNamed(name)!;
      const n = 1024 + 8;
      // y's last element is the memory's last bytes; x just before it. Lookahead up to twice the operands' length.
      const py = end - n * s.bytes, px = py - n * s.bytes - 16;
      if (px < 65536) throw new Error('memory too small for the test');
      const bits = name === 'f16' ? 0x3c00 : name === 'bf16' ? 0x3f80 : 0;
      if (bits) new Uint16Array(memory, px, 2 * n + 8).fill(bits);
      else if (name === 'f32') new Float32Array(memory, px, 2 * n + 4).fill(1);
      else new Float64Array(memory, px, 2 * n + 2).fill(1);
      for (const ahead of [8, 256, n * s.bytes, 2 * n * s.bytes]) {
        const acc = new Float64Array(memory, 0, 8);
        acc.fill(0);
        dotChunk(s, false, s, false, 'f64', ahead, 256)(px, 1, py, 1, n);
        expect(acc.reduce((a, b) => a + b)).toBe(n);
        const checked = checkedNarrowDotChunk(s, false, s, false, 1024, true, ahead);
        if (checked) {
          acc.fill(0);
          expect(checked(px, 1, py, 1, n)).toBe(n);
          expect(acc.reduce((a, b) => a + b)).toBe(n);
        }
      }
    }
  });
});
