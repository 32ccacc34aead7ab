/**
 * A bound function refuses exactly the accumulation/arithmetic combinations its kernel refuses, with the same typed
 * error (code, parameter, message): 'kahan' and 'dot2' need fp64 or a ≤ 26-bit number arithmetic, 'dd' a number or
 * pair arithmetic of those, 'pairwise' anything but RNS. Regression: dotBound, gemvBound, asumBound, nrm2Bound, … gave
 * finite bounds for 'kahan' or 'dot2' with ff or dd arithmetic (and 'pairwise'/'kahan'/'dot2'/'dd' with RNS), which
 * the kernels refuse; and the kernels other than DOT refused them only when they had terms to sum (n = 0 returned).
 */
import { describe, expect, it } from 'vitest';
import {
  accumulationNames, asum, asumBound, dot, dotBound, ellMatrix, ellSpmv, ellSpmvBound, formats, gemv, gemvBound, matrix,
  ModprecError, nrm2, nrm2Bound, nrm2RelativeBound, trsv, trsvBound, vector,
} from '../../src/index.js';

const ARITHMETICS = { f64: formats.f64, f32: formats.f32, ff: formats.ff, dd: formats.dd, rns106: formats.rns106 } as const;
type ArithmeticName = keyof typeof ARITHMETICS;

/** The outcome of a call: 'ok', or the typed error's code, parameter and message. */
function outcome(call: () => unknown): string {
  try {
    call();
    return 'ok';
  } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    return `${e.code} ${e.parameter}: ${e.message}`;
  }
}

/** Each reduction kernel beside its bound function, on n-element operands, with the same options. */
function pairs(n: number, options: object): Record<string, [kernel: () => unknown, bound: () => unknown]> {
  const v = () => vector(Array.from({ length: n }, (_, i) => i + 1));
  const A = () => matrix(n, n, (i, j) => (i === j ? 2 : i < j ? 1 : 0));
  const ell = () => ellMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values: new Float64Array(n).fill(2) });
  const o = options as never;
  return {
    dot: [() => dot(v(), v(), o), () => dotBound(v(), v(), o)],
    asum: [() => asum(v(), o), () => asumBound(v(), o)],
    nrm2: [() => nrm2(v(), o), () => nrm2Bound(v(), o)],
    nrm2Relative: [() => nrm2(v(), o), () => nrm2RelativeBound(n, o)],
    gemvN: [() => gemv({ alpha: 1, A: A(), x: v(), beta: 1, y: v() }, o), () => gemvBound({ alpha: 1, A: A(), x: v(), beta: 1, y: v() }, o)],
    gemvT: [() => gemv({ alpha: 1, A: A(), x: v(), beta: 0, y: v(), trans: 'T' }, o), () => gemvBound({ alpha: 1, A: A(), x: v(), beta: 0, y: v(), trans: 'T' }, o)],
    ellSpmv: [() => ellSpmv({ alpha: 1, A: ell(), x: v(), beta: 1, y: v() }, o), () => ellSpmvBound({ alpha: 1, A: ell(), x: v(), beta: 1, y: v() }, o)],
    trsv: [() => trsv({ A: A(), x: v(), uplo: 'U' }, o), () => trsvBound({ A: A(), x: v(), uplo: 'U' }, o)],
  };
}

describe('bound functions refuse what their kernels refuse', () => {
  it('regressions: kahan and dot2 with ff or dd arithmetic are refused by the bounds, naming options.accumulation', () => {
    for (const accumulation of ['kahan', 'dot2']) {
      for (const arithmetic of [formats.ff, formats.dd]) {
        const x = vector([1, 2, 3]);
        expect(() => dotBound(x, x, { arithmetic, accumulation })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.accumulation' }));
        expect(() => asumBound(x, { arithmetic, accumulation })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.accumulation' }));
      }
    }
    // What the kernels run is still bounded: 'dd' accumulation in ff arithmetic, 'kahan' in fp32.
    expect(Number.isFinite(dotBound(vector([1, 2]), vector([3, 4]), { arithmetic: formats.ff, accumulation: 'dd' }))).toBe(true);
    expect(Number.isFinite(dotBound(vector([1, 2]), vector([3, 4]), { arithmetic: formats.f32, accumulation: 'kahan' }))).toBe(true);
  });

  it('every accumulation × arithmetic × kernel, n ∈ {0, 1, 3}, default and \'js\' backends: the same outcome', () => {
    // The option space is small (5 accumulations × 5 arithmetics × 3 sizes × 2 backends): checked whole, every kernel.
    let refusals = 0;
    for (const c of enumerate()) {
      const options = { accumulation: c.accumulation, arithmetic: ARITHMETICS[c.arithmetic], ...(c.backend ? { backend: c.backend } : {}) };
      for (const [name, [kernel, bound]] of Object.entries(pairs(c.n, options))) {
        const [k, b] = [outcome(kernel), outcome(bound)];
        if (k !== 'ok') refusals++;
        expect({ ...c, name, bound: b }).toEqual({ ...c, name, bound: k });
      }
    }
    // The space holds refused combinations (kahan/dot2 × ff/dd/RNS, pairwise/dd × RNS), on every kernel and size.
    expect(refusals).toBe(2 * 3 * 8 * (2 * 3 + 2));
  });
});

/** Every point of the option space. */
function enumerate(): { accumulation: string; arithmetic: ArithmeticName; n: number; backend: string | undefined }[] {
  const out: { accumulation: string; arithmetic: ArithmeticName; n: number; backend: string | undefined }[] = [];
  for (const accumulation of accumulationNames()) for (const arithmetic of Object.keys(ARITHMETICS) as ArithmeticName[]) {
    for (const n of [0, 1, 3]) for (const backend of [undefined, 'js']) out.push({ accumulation, arithmetic, n, backend });
  }
  return out;
}
