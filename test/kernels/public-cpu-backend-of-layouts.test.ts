/**
 * cpuBackendOf reports the choice GEMV and TRSV make, their own WebAssembly limits included: op(A)'s layout, GEMV's
 * ordered sums over op(A)'s rows and its explicit `loop`. Regression: `cpuBackendOf('gemv', { A, x, y })` with an A
 * of strides [2, 5] (no unit stride) answered 'wasm' — and `{ backend: 'wasm' }` answered 'wasm' too — where gemv runs
 * the generated JavaScript (and `gemv(…, { backend: 'wasm' })` is INVALID_OPTION naming A); likewise TRSV's layout,
 * GEMV's `loop: 'dot'`, and a pairwise GEMV over op(A) with non-contiguous rows. And an option the kernel does not
 * take is refused as the kernel refuses it: `cpuBackendOf('dot', { x, y }, { loop: 'dot' })` answered where dot refuses.
 * ELL SpMV's A (its ELL operand) is taken as the kernel takes it: values scaled per slot keep the automatic choice in
 * the generated JavaScript, which the report could not say (A was refused as not a range).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cpuBackendOf, dot, ellMatrix, ellOperand, ellSpmv, formats, gemv, range, scaledReducedColMajor, colMajor, strided, trsv, vector, ModprecError, type Range } from '../../src/index.js';

/** An r×c matrix with these strides (diagonal 4, else small values: well conditioned for TRSV). */
function matrixOf(r: number, c: number, strides: [number, number]): Range<2, any> {
  const A = range(strided<2>({ size: [r, c], strides }));
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) A.set(i, j, i === j ? 4 : (i + 2 * j) / 16);
  return A;
}

/** Whether a call ran, or the typed error's code and parameter. */
function outcome(run: () => void): string {
  try { run(); return 'ran'; } catch (e) { if (e instanceof ModprecError) return `${e.code} ${e.parameter}`; throw e; }
}

const layouts: [number, number][] = [[3, 1], [1, 3], [6, 2], [2, 6], [2, 7], [7, 2]];
const cases = fc.record({
  strides: fc.constantFrom(...layouts), trans: fc.constantFrom('N' as const, 'T' as const),
  accumulation: fc.constantFrom(undefined, 'pairwise', 'dot2', 'kahan', 'dd'), loop: fc.constantFrom(undefined, 'auto', 'dot'),
});

describe('cpuBackendOf reports the layout limits of GEMV and TRSV', () => {
  it("GEMV: 'wasm' is reported exactly where backend 'wasm' runs, and the automatic choice only there", () => {
    fc.assert(fc.property(cases, ({ strides, trans, accumulation, loop }) => {
      const A = matrixOf(3, 3, strides), x = vector([1, 2, 3]), y = vector(3);
      const options = { accumulation, loop: loop as 'auto' | 'dot' | undefined };
      const wasmRun = outcome(() => gemv({ alpha: 1, A, x, beta: 0, y, trans }, { ...options, backend: 'wasm' }));
      const wasmReport = cpuBackendOf('gemv', { A, x, y }, { ...options, trans, backend: 'wasm' }, ['y']);
      expect([wasmReport.backend, wasmRun.startsWith('INVALID_OPTION') ? 'refused' : wasmRun]).toEqual(wasmReport.backend === 'wasm' ? ['wasm', 'ran'] : ['js', 'refused']);
      // The refusal's parameter is the one the report names.
      if (wasmReport.backend === 'js') expect(wasmReport.reason!.startsWith(`${wasmRun.split(' ')[1]}:`)).toBe(true);
      if (cpuBackendOf('gemv', { A, x, y }, { ...options, trans }, ['y']).backend === 'wasm') expect(wasmReport.backend).toBe('wasm');
    }), { numRuns: 60 });
  });

  it("TRSV: 'wasm' is reported exactly where backend 'wasm' runs", () => {
    fc.assert(fc.property(cases, ({ strides, trans, accumulation }) => {
      const A = matrixOf(3, 3, strides), x = vector([1, 2, 3]);
      const wasmRun = outcome(() => trsv({ A, x, trans }, { accumulation, backend: 'wasm' }));
      const wasmReport = cpuBackendOf('trsv', { A, x }, { accumulation, trans, backend: 'wasm' }, ['x']);
      expect([wasmReport.backend, wasmRun.startsWith('INVALID_OPTION') ? 'refused' : wasmRun]).toEqual(wasmReport.backend === 'wasm' ? ['wasm', 'ran'] : ['js', 'refused']);
    }), { numRuns: 40 });
  });

  it('the example of the regression: an A with no unit stride is reported as the generated JavaScript, naming A', () => {
    const A = matrixOf(2, 2, [2, 5]), x = vector([1, 2]), y = vector(2);
    expect(cpuBackendOf('gemv', { A, x, y }, {}, ['y'])).toEqual({ backend: 'js', reason: expect.stringMatching(/^A: /) });
    expect(cpuBackendOf('gemv', { A: matrixOf(2, 2, [2, 1]), x, y }, { loop: 'dot' }, ['y'])).toEqual({ backend: 'js', reason: expect.stringMatching(/^options\.loop: /) });
    expect(() => cpuBackendOf('gemv', { A, x, y }, { trans: 'X' as never }, ['y'])).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.trans' }));
  });

  it("an option the kernel does not take is refused as the kernel refuses it (GEMV's loop asked of DOT, a resident tuning option)", () => {
    const x = vector([1, 2]);
    for (const [options, code, parameter] of [[{ loop: 'dot' }, 'INVALID_OPTION', 'options.loop'], [{ groups: 4 }, 'INVALID_OPTION', 'options.groups'], [{ maxThreads: 0 }, 'INVALID_SIZE', 'options.maxThreads']] as const) {
      expect(outcome(() => cpuBackendOf('dot', { x, y: x }, options as never))).toBe(`${code} ${parameter}`);
      expect(outcome(() => dot(x, x, options as never))).toBe(`${code} ${parameter}`);
    }
  });

  it("ELL SpMV: 'wasm' is reported exactly where backend 'wasm' runs, and the automatic choice only where the kernel takes it", () => {
    const structure = { rows: 3, cols: 3, width: 2, stride: 3, colIndex: Int32Array.of(0, 1, 2, 1, 2, 0), values: Float64Array.of(1, 2, 3, 4, 5, 6) };
    const valuesOf = (kind: string): Range<2, any> => {
      const size: [number, number] = [3, 2];
      const r = kind === 'f64' ? range(colMajor<2>({ size, storage: formats.f64 })) : kind === 'dd' ? range(colMajor<2>({ size, storage: formats.dd }))
        : range(scaledReducedColMajor<2>({ size, storage: formats.i16, arithmetic: formats.f64, scaleMask: kind === 'slot' ? [true, true] : [true, false] }));
      for (let i = 0; i < 3; i++) for (let k = 0; k < 2; k++) r.set(i, k, structure.values[i + 3 * k]!);
      return r;
    };
    fc.assert(fc.property(fc.constantFrom('f64', 'dd', 'slot', 'row'), fc.constantFrom(undefined, 'f32', 'f64'), fc.constantFrom(undefined, 'pairwise', 'kahan'), (kind, arithmetic, accumulation) => {
      const A = ellOperand(ellMatrix(structure), valuesOf(kind)), x = vector([1, 2, 3]), y = vector(3);
      const options = { accumulation, arithmetic: arithmetic && formats[arithmetic] };
      const wasmRun = outcome(() => ellSpmv({ alpha: 1, A, x, beta: 0, y }, { ...options, backend: 'wasm' }));
      const wasmReport = cpuBackendOf('ellSpmv', { A, x, y }, { ...options, backend: 'wasm' }, ['y']);
      expect([kind, arithmetic, accumulation, wasmReport.backend, wasmRun === 'ran' ? 'ran' : 'refused']).toEqual([kind, arithmetic, accumulation, wasmReport.backend, wasmReport.backend === 'wasm' ? 'ran' : 'refused']);
      const auto = cpuBackendOf('ellSpmv', { A, x, y }, options, ['y']);
      if (auto.backend === 'wasm') expect(wasmReport.backend).toBe('wasm');
      // Values scaled per slot: read through a twin of the JavaScript's reads, so the automatic choice is the JavaScript.
      if (kind === 'slot') expect(auto).toEqual({ backend: 'js', reason: expect.stringMatching(/^A\.values: /) });
    }), { numRuns: 30 });
    expect(outcome(() => cpuBackendOf('ellSpmv', { A: 3 as never, x: vector(3) }))).toBe('INVALID_OPTION operands.A');
  });
});
