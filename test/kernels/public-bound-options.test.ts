/**
 * Every bound function checks its options as its kernel does: for random option objects — valid and invalid
 * `backend`, `strict`, `threads`, `arithmetic`, `accumulation` (and GEMV's `loop`, TRSV's `blockSize`) — on random
 * operand storages, the bound throws exactly the kernel's typed error (code and parameter) for the same operands and
 * options, and returns a number (or numbers) where the kernel runs. Regression: every bound but trsvBound ignored
 * `backend`, `strict` and `threads` (`dotBound(x, y, { backend: 'gpu', arithmetic: formats.f64 })` bounded a call DOT
 * refuses; `strict: 'x'` was accepted), and trsvBound accepted `threads` and calls `backend: 'wasm'` refuses.
 *
 * `backend: 'gpu'`: the kernels check everything synchronously before handing the call to the GPU runner; the
 * runners are replaced here by stubs (no adapter, shader or CPU fallback runs), so the comparison is with the
 * kernel's own validation on every machine. A valid-looking pool (`runSplit`, `checkOptions` and `checkSplit` functions) stands for `threads`: a
 * kernel that accepts it hands it the checked call, which the stub answers.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { BOUND_OPTION_VALUES, fakePool, outcome, sometimesInvalidOptions } from './option-arbitraries.js';
import {
  asum, asumBound, axpy, axpyBound, dot, dotBound, ellMatrix, ellSpmv, ellSpmvBound, formats, gemv, gemvBound,
  matrix, nrm2, nrm2Bound, range, scal, scalBound, strided, trsv, trsvBound, vector, waxpby, waxpbyBound,
} from '../../src/index.js';

vi.mock('../../src/backends/webgpu-bridge/gpu-dispatch.js', async (io) => (await import('./gpu-dispatch-stub.js')).stubGpuDispatch(io));

/** Per option, values the kernels take and values they refuse (some valid ones are refused in combination). */
const optionValues = {
  ...BOUND_OPTION_VALUES,
  loop: [['auto', 'dot', 'dot-blocked', 'axpy'], ['sideways']],
  blockSize: [[64, 128], [100]],
} as const;

const optionsArb = sometimesInvalidOptions(optionValues);

const STORAGES = [formats.f64, formats.f32, formats.f16, formats.dd];
/** A's layouts: WebAssembly refuses some for some accumulations (row-major with trans 'T' and 'pairwise'), and one with no unit stride. */
const LAYOUTS = ['col-major', 'row-major', 'strided'] as const;

/** Each kernel beside its bound function, on fresh n-element operands stored in `storage`, with the same options. */
function pairs(n: number, storage: unknown, output: unknown, layout: (typeof LAYOUTS)[number], options: object): Record<string, [kernel: () => unknown, bound: () => unknown]> {
  const v = (st: unknown = storage) => vector(Array.from({ length: n }, (_, i) => (i + 1) / 4), { storage: st as never });
  const entry = (i: number, j: number): number => (i === j ? 2 : i < j ? 0.5 : 0);
  const A = () => {
    if (layout !== 'strided') return matrix(n, n, entry, { storage: storage as never, layout });
    const r = range(strided<2>({ size: [n, n], strides: [2, 2 * Math.max(1, n)], storage: storage as never }));
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) r.set(i, j, entry(i, j));
    return r;
  };
  const ell = () => ellMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values: new Float64Array(n).fill(2) });
  const o = options as never;
  const gemvArgs = (trans: 'N' | 'T') => ({ alpha: 1.5, A: A(), x: v(), beta: 0.5, y: v(output), trans });
  return {
    dot: [() => dot(v(), v(output), o), () => dotBound(v(), v(output), o)],
    asum: [() => asum(v(), o), () => asumBound(v(), o)],
    nrm2: [() => nrm2(v(), o), () => nrm2Bound(v(), o)],
    axpy: [() => axpy(1.5, v(), v(output), o), () => axpyBound(1.5, v(), v(output), o)],
    waxpby: [() => waxpby(1.5, v(), -0.5, v(), v(output), o), () => waxpbyBound(1.5, v(), -0.5, v(), v(output), o)],
    scal: [() => scal(1.5, v(output), o), () => scalBound(1.5, v(output), o)],
    gemvN: [() => gemv(gemvArgs('N'), o), () => gemvBound(gemvArgs('N'), o)],
    gemvT: [() => gemv(gemvArgs('T'), o), () => gemvBound(gemvArgs('T'), o)],
    ellSpmv: [() => ellSpmv({ alpha: 1.5, A: ell(), x: v(), beta: 0.5, y: v(output) }, o), () => ellSpmvBound({ alpha: 1.5, A: ell(), x: v(), beta: 0.5, y: v(output) }, o)],
    trsv: [() => trsv({ A: A(), x: v(output), uplo: 'U' }, o), () => trsvBound({ A: A(), x: v(output), uplo: 'U' }, o)],
  };
}

/** Whether a bound's answer is what a bound promises: a non-negative number, or an array of them. */
function isBound(value: unknown): boolean {
  const values = typeof value === 'number' ? [value] : value instanceof Float64Array ? [...value] : undefined;
  return values !== undefined && values.every((b) => b >= 0);
}

describe('bound functions check their options as their kernels do', () => {
  it('random options × operand storages × kernels: the same typed error, or a bound where the kernel runs', () => {
    const seen = { ok: 0, refused: new Set<string>() };
    fc.assert(fc.property(
      optionsArb, fc.constantFrom(...STORAGES), fc.constantFrom(...STORAGES), fc.constantFrom(...LAYOUTS), fc.constantFrom(0, 3),
      (options, storage, output, layout, n) => {
        for (const [name, [kernel, bound]] of Object.entries(pairs(n, storage, output, layout, options))) {
          const k = outcome(kernel);
          const b = outcome(bound);
          const context = { name, options, storage: storage.name, output: output.name, layout, n };
          if (!k.ok) {
            seen.refused.add(k.error);
            expect({ ...context, bound: b.ok ? 'ok' : b.error }).toEqual({ ...context, bound: k.error });
          } else {
            seen.ok++;
            expect({ ...context, bound: b.ok && isBound(b.value) }).toEqual({ ...context, bound: true });
          }
        }
      },
    ), { numRuns: 500, seed: 0x5b0d });
    // The runs reach both sides, and the refusals this test exists for.
    expect(seen.ok).toBeGreaterThan(50);
    // ('INVALID_OPTION A': WebAssembly's layout refusals, GEMV's ordered sums and TRSV's A without a unit stride.)
    for (const error of ['INVALID_OPTION A', 'INVALID_OPTION options.loop', 'INVALID_OPTION options.blockSize', 'INVALID_OPTION options.backend', 'INVALID_OPTION options.strict', 'INVALID_OPTION options.threads', 'INVALID_OPTION options.accumulation', 'INVALID_OPTION options.arithmetic']) {
      expect(seen.refused).toContain(error);
    }
  });

  it('regressions: dotBound refuses a GPU call in fp64, a non-boolean strict and a pool that is none', () => {
    const x = vector([1, 2, 3]);
    expect(() => dotBound(x, x, { backend: 'gpu', arithmetic: formats.f64 } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' }));
    expect(() => dotBound(x, x, { strict: 'x' } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.strict' }));
    expect(() => dotBound(x, x, { threads: {} } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.threads' }));
    expect(() => trsvBound({ A: matrix(1, 1, () => 1), x: vector([1]), uplo: 'U' }, { threads: fakePool } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.threads' }));
  });
});
