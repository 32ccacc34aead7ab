/**
 * Bad input through the public API on every CPU backend (automatic, `'wasm'`, `'js'`): a ModprecError naming the
 * parameter, the same code and parameter on every backend (one validation), and raised before anything is written —
 * every raw element and scale of every operand is as it was. Random operands (storages, strides, sub-ranges) with
 * one defect each: a wrong length, a read-only output, an output overlapping an input, an unknown option value.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { axpy, waxpby, scal, dot, asum, nrm2, gemv, trsv, ellSpmv, ellOperand, ELL_PADDING, ModprecError, type Range } from '../../src/index.js';
import { buildMat, buildVec, firstRawDifference, matSpecArb, runs, vecSpecArb, type Built } from './public-operands.js';

const BACKENDS = ['js', 'cpu', 'wasm'] as const;
/** Option defects: each must be refused naming the option. */
const BAD_OPTIONS: readonly [Record<string, unknown>, string][] = [
  [{ arithmetic: 'f128' }, 'options.arithmetic'],
  [{ accumulation: 'magic' }, 'options.accumulation'],
  [{ backend: 'fpga' }, 'options.backend'],
];

type Defect = 'short' | 'readonly' | 'alias' | `option${number}`;
const defects: Defect[] = ['short', 'readonly', 'alias', ...BAD_OPTIONS.map((_, k) => `option${k}` as Defect)];

/** Runs the call on every backend from identical operands; each must throw a ModprecError and write nothing. */
function expectRefusedEverywhere(make: () => Built<any>[], call: (ops: Built<any>[], backend: string) => unknown, what: string): ModprecError {
  let first: ModprecError | undefined;
  for (const backend of BACKENDS) {
    const ops = make();
    const before = ops.map((o) => o.raw());
    let error: unknown;
    try { call(ops, backend); } catch (e) { error = e; }
    if (!(error instanceof ModprecError)) throw new Error(`${what} [${backend}]: expected a ModprecError, got ${String(error)}`);
    expect(typeof error.parameter === 'string' && error.parameter.length > 0, `${what} [${backend}]: no parameter named`).toBe(true);
    ops.forEach((o, k) => {
      const d = firstRawDifference(before[k]!, o.raw());
      if (d) throw new Error(`${what} [${backend}]: ${error instanceof ModprecError ? error.code : ''} raised after writing operand ${k}: ${d}`);
    });
    if (!first) first = error;
    else expect(`${error.code} ${error.parameter}`, `${what} [${backend}]: another validation than js's`).toBe(`${first.code} ${first.parameter}`);
  }
  return first!;
}

const n = fc.integer({ min: 1, max: 20 });
const arith = fc.constantFrom('f64', 'f32', 'dd');

describe('bad input: a typed error naming the parameter, the same on every CPU backend, nothing written', () => {
  it('vector kernels', () => {
    fc.assert(fc.property(n.chain((len) => fc.record({ len: fc.constant(len), x: vecSpecArb(len, undefined, 0), y: vecSpecArb(len, undefined, 0), w: vecSpecArb(len, undefined, 0),
      kernel: fc.constantFrom('axpy', 'waxpby', 'scal', 'dot', 'asum', 'nrm2'), defect: fc.constantFrom(...defects), ar: arith })), (t) => {
      const short = t.defect === 'short';
      const option = t.defect.startsWith('option') ? BAD_OPTIONS[Number(t.defect.slice(6))]! : null;
      // Reductions have no output to protect or alias; AXPY's alias (y := αy + y) and SCAL's length are legal.
      fc.pre(!!option || (short ? !['asum', 'nrm2', 'scal'].includes(t.kernel) : !['dot', 'asum', 'nrm2'].includes(t.kernel)));
      // (WAXPBY's w may be x or y exactly; a partial overlap is not built here.)
      fc.pre(t.defect !== 'alias');
      const make = () => [buildVec(t.x, t.ar), buildVec(short ? { ...t.y, values: t.y.values.slice(1) } : t.y, t.ar), buildVec(t.w, t.ar)];
      const out = (o: Built<1>): Range<1, any> => (t.defect === 'readonly' ? o.range.toConst() : o.range);
      const opts = (backend: string) => ({ arithmetic: t.ar, backend, ...(option ? option[0] : {}) }) as any;
      const what = `${t.kernel} ${t.defect} ${t.ar}`;
      const err = expectRefusedEverywhere(make, ([x, y, w], backend) => {
        switch (t.kernel) {
          case 'axpy': return axpy(1.5, x!.range, out(y!), opts(backend));
          case 'waxpby': return waxpby(1.5, x!.range, -2, y!.range, short ? w!.range : out(w!), opts(backend));
          case 'scal': return scal(3, out(x!), opts(backend));
          case 'dot': return dot(x!.range, y!.range, opts(backend));
          case 'asum': return asum(x!.range, opts(backend));
          default: return nrm2(x!.range, opts(backend));
        }
      }, what);
      if (option) expect(err.parameter, what).toBe(option[1]);
    }), { numRuns: runs(150) });
  });

  it('GEMV, TRSV and ELL SpMV', () => {
    fc.assert(fc.property(fc.record({ m: fc.integer({ min: 1, max: 12 }), k: fc.integer({ min: 1, max: 12 }), A: matSpecArb(undefined, 0),
      kernel: fc.constantFrom('gemv', 'trsv', 'ell'), defect: fc.constantFrom(...defects), ar: arith, trans: fc.constantFrom<'N' | 'T'>('N', 'T') })
      .chain((t) => fc.record({ x: vecSpecArb(t.kernel === 'trsv' ? t.m : t.k, undefined, 0), y: vecSpecArb(t.m, undefined, 0) }).map((v) => ({ ...t, ...v }))), (t) => {
      const option = t.defect.startsWith('option') ? BAD_OPTIONS[Number(t.defect.slice(6))]! : null;
      const cols = t.kernel === 'trsv' ? t.m : t.k;
      const [rows, cs] = t.kernel === 'gemv' && t.trans === 'T' ? [cols, t.m] : [t.m, cols];
      const shortX = t.defect === 'short';
      // Aliasing: GEMV's and ELL's y over x (x of length m); TRSV's x cannot alias A through these builders.
      fc.pre(t.defect !== 'alias' || (t.kernel !== 'trsv' && (t.kernel === 'gemv' ? cs : cols) === rows));
      const make = () => [buildMat(t.A, rows, t.kernel === 'ell' ? 2 : cs, t.ar, (i, j) => (i === j ? 1 : 0.25 * (i - j))),
        buildVec(shortX ? { ...t.x, values: t.x.values.slice(1) } : t.x, t.ar), buildVec(t.y, t.ar)];
      const opts = (backend: string) => ({ arithmetic: t.ar, backend, ...(option ? option[0] : {}) }) as any;
      const what = `${t.kernel} ${t.defect} ${t.ar} ${t.trans}`;
      const err = expectRefusedEverywhere(make, ([A, x, y], backend) => {
        const out = (o: Built<1>): Range<1, any> => (t.defect === 'readonly' ? o.range.toConst() : o.range);
        if (t.kernel === 'gemv') {
          const yy = t.defect === 'alias' ? x!.range : out(y!);
          return gemv({ alpha: 1, A: A!.range, x: x!.range, beta: 0.5, y: yy, trans: t.trans }, opts(backend));
        }
        if (t.kernel === 'trsv') {
          return trsv({ A: A!.range, x: out(x!), uplo: 'L', trans: t.trans, diag: 'N' }, opts(backend));
        }
        const colIndex = new Int32Array(rows * 2).fill(ELL_PADDING);
        for (let i = 0; i < rows; i++) colIndex[i] = i % cols;
        const E = ellOperand({ rows, cols, width: 2, stride: rows, colIndex }, A!.range);
        const yy = t.defect === 'alias' ? x!.range : out(y!);
        return ellSpmv({ alpha: 2, A: E, x: x!.range, beta: 0, y: yy }, opts(backend));
      }, what);
      if (option) expect(err.parameter, what).toBe(option[1]);
    }), { numRuns: runs(150) });
  });
});
