/**
 * luFactor and luSolve grew their WebAssembly workspace with memory.grow, whose refusal (an fp64 matrix of order
 * n ≥ 23171 needs more than the 4 GiB a WebAssembly memory holds) came out as the engine's bare RangeError — for the
 * default backend 'cpu' too, which runs JavaScript where WebAssembly cannot. Now 'cpu' goes on in JavaScript (the
 * same bits) and 'wasm' is INVALID_SIZE naming A (luFactor) or factors (luSolve). The refusal is simulated by a grow
 * that always refuses, so the test needs no memory.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModprecError, denseMatrix, luFactor, luFactorF32, luSolve, luSolveF32 } from '../../src/index.js';
import { refuseAllocationsFrom } from '../sparse/sparse-arbitraries.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

afterEach(() => { vi.restoreAllMocks(); });

describe('LU: a WebAssembly memory that cannot grow', () => {
  it('cpu gives the JavaScript factors and solution bit for bit; wasm is INVALID_SIZE naming the operand', () => {
    const n = 200; // 320 kB of fp64, more than the workspace holds before its first growth
    const data = Float64Array.from({ length: n * n }, (_, k) => Math.sin(k * 0.7) + (k % (n + 1) === 0 ? 3 : 0));
    const A = denseMatrix({ rows: n, cols: n, ld: n, data });
    const b = Float64Array.from({ length: n }, (_, i) => i / 7 - 3);
    vi.spyOn(WebAssembly.Memory.prototype, 'grow').mockImplementation(() => { throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded'); });
    const cpu = luFactor(A), cpu32 = luFactorF32(A);
    expect(errorOf(() => luFactor(A, { backend: 'wasm' }))).toEqual(['INVALID_SIZE', 'A']);
    expect(errorOf(() => luFactorF32(A, { backend: 'wasm' }))).toEqual(['INVALID_SIZE', 'A']);
    const x = luSolve(cpu, b), x32 = luSolveF32(cpu32, b);
    expect(errorOf(() => luSolve(cpu, b, { backend: 'wasm' }))).toEqual(['INVALID_SIZE', 'factors']);
    expect(errorOf(() => luSolveF32(cpu32, b, { backend: 'wasm' }))).toEqual(['INVALID_SIZE', 'factors']);
    vi.restoreAllMocks();
    const js = luFactor(A, { backend: 'js' }), js32 = luFactorF32(A, { backend: 'js' });
    expect(cpu.lu.data).toEqual(js.lu.data);
    expect(cpu.pivots).toEqual(js.pivots);
    expect(cpu32.lu).toEqual(js32.lu);
    expect(x).toEqual(luSolve(js, b, { backend: 'js' }));
    expect(x32).toEqual(luSolveF32(js32, b, { backend: 'js' }));
    // and with a memory that grows, wasm gives the same bits again
    expect(luSolve(luFactor(A, { backend: 'wasm' }), b, { backend: 'wasm' })).toEqual(x);
  });

  it('packed factors the engine cannot allocate are INVALID_SIZE naming A (was its bare RangeError)', () => {
    const n = 60;
    const A = denseMatrix({ rows: n, cols: n, ld: n, data: Float64Array.from({ length: n * n }, (_, k) => (k % (n + 1) === 0 ? 4 : 1 / (k + 2))) });
    refuseAllocationsFrom(n * n, ['Float64Array', 'Float32Array']);
    try {
      for (const backend of ['js', 'cpu'] as const) {
        vi.spyOn(WebAssembly.Memory.prototype, 'grow').mockImplementation(() => { throw new RangeError('Maximum memory size exceeded'); });
        expect(errorOf(() => luFactor(A, { backend }))).toEqual(['INVALID_SIZE', 'A']);
        expect(errorOf(() => luFactorF32(A, { backend }))).toEqual(['INVALID_SIZE', 'A']);
        vi.restoreAllMocks();
      }
    } finally {
      vi.unstubAllGlobals();
    }
    expect(luFactor(A, { backend: 'js' }).lu.data.length).toBe(n * n);
  });
});
