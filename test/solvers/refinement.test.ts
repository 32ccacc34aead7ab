/**
 * Iterative refinement with an fp32 LU reaches fp64-solve accuracy on conditioned systems; the fp32 LU rounds every
 * product and every difference to fp32 exactly as the unblocked algorithm written here with Math.fround does, on the
 * JavaScript and the WebAssembly backends alike.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  iterativeRefinement, luFactor, luSolve, luFactorF32, luSolveF32, toArray, formats, seededRandom, type DenseMatrix,
} from '../../src/index.js';
import { relativeError, relativeResidual } from './solver-fixtures.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { blockedLu, LU_PANEL } from '../../src/linalg/lu-blocked.js';
import { packedSolver } from '../../src/linalg/lu-run.js';

/** A = Q₁·diag(σ)·Q₂ with σ from 1 down to 1/cond and Q products of four random Householder reflectors each. */
function randsvd(n: number, cond: number, seed: number): DenseMatrix {
  const rnd = seededRandom(seed);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) a[i + i * n] = cond ** (-i / Math.max(1, n - 1));
  const reflect = (left: boolean): void => {
    const v = Float64Array.from({ length: n }, () => rnd.nextDouble() - 0.5);
    const c = 2 / v.reduce((s, x) => s + x * x, 0);
    for (let k = 0; k < n; k++) {
      let d = 0;
      for (let l = 0; l < n; l++) d += v[l]! * (left ? a[l + k * n]! : a[k + l * n]!);
      for (let l = 0; l < n; l++) if (left) a[l + k * n] -= c * d * v[l]!; else a[k + l * n] -= c * d * v[l]!;
    }
  };
  for (let k = 0; k < 4; k++) { reflect(true); reflect(false); }
  return { rows: n, cols: n, ld: n, data: a };
}

/** The unblocked right-looking LU in fp32, every product and difference rounded with Math.fround: the oracle of luFactorF32. */
function referenceLuF32(A: DenseMatrix): { lu: Float32Array; pivots: Int32Array } {
  const r = referenceLu(A, Math.fround);
  return { lu: Float32Array.from(r.lu), pivots: r.pivots };
}

/** The unblocked right-looking LU, every stored value rounded by `round` (identity: fp64, the oracle of luFactor). */
function referenceLu(A: DenseMatrix, round: (v: number) => number): { lu: Float64Array; pivots: Int32Array } {
  const n = A.rows;
  const a = Array.from({ length: n * n }, (_, k) => round(A.data[k]!));
  const pivots = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(a[i + k * n]!) > Math.abs(a[p + k * n]!)) p = i;
    pivots[k] = p;
    for (let j = 0; j < n; j++) { const t = a[k + j * n]!; a[k + j * n] = a[p + j * n]!; a[p + j * n] = t; }
    const pivot = a[k + k * n]!;
    if (pivot === 0) continue;
    for (let i = k + 1; i < n; i++) a[i + k * n] = round(a[i + k * n]! / pivot);
    for (let j = k + 1; j < n; j++) {
      const u = a[k + j * n]!;
      if (u === 0) continue;
      for (let i = k + 1; i < n; i++) a[i + j * n] = round(a[i + j * n]! - round(a[i + k * n]! * u));
    }
  }
  return { lu: Float64Array.from(a), pivots };
}

/** The CPU backends: the WebAssembly trailing update and the JavaScript sweep (the default picks the first). */
const backendOf = fc.constantFrom<'wasm' | 'js' | 'cpu'>('wasm', 'js', 'cpu');

describe('luFactorF32', () => {
  it('equals the unblocked fp32 algorithm bit for bit (panels of 48 included: n up to 120), on both CPU backends', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 120 }), fc.integer(), backendOf, (n, seed, backend) => {
      const rnd = seededRandom(seed);
      const A = { rows: n, cols: n, ld: n, data: Float64Array.from({ length: n * n }, () => rnd.nextDouble() * 2 - 1) };
      const ref = referenceLuF32(A);
      const f = luFactorF32(A, { backend });
      expect(f.pivots).toEqual(ref.pivots);
      expect(f.lu).toEqual(ref.lu);
      expect(f.firstZeroPivot).toBe(-1);
    }), { numRuns: 25 });
  });

  it('equals it on matrices full of zeros and zero pivots too (the skipped updates of the unblocked loop)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 70 }), fc.integer(), backendOf, (n, seed, backend) => {
      const rnd = seededRandom(seed);
      // Entries −2 … 2 with about two thirds zero; some columns all zero (zero pivots).
      const data = Float64Array.from({ length: n * n }, () => { const u = rnd.nextUint32() % 15; return u < 10 ? 0 : u - 12; });
      for (let j = 0; j < n; j += 7) for (let i = 0; i < n; i++) data[i + j * n] = 0;
      const A = { rows: n, cols: n, ld: n, data };
      const ref = referenceLuF32(A);
      const f = luFactorF32(A, { backend });
      expect(f.pivots).toEqual(ref.pivots);
      expect(f.lu).toEqual(ref.lu);
      expect(f.firstZeroPivot).toBe(0);
    }), { numRuns: 40 });
  });

  it('luFactor (the panel code on Float64Array) is bit for bit the unblocked fp64 algorithm, zero pivots included, on both CPU backends', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 120 }), fc.integer(), fc.boolean(), backendOf, (n, seed, sparse, backend) => {
      const rnd = seededRandom(seed);
      const data = Float64Array.from({ length: n * n }, () => (sparse && rnd.nextUint32() % 3 !== 0 ? 0 : rnd.nextDouble() - 0.5));
      if (sparse) for (let j = 0; j < n; j += 9) for (let i = 0; i < n; i++) data[i + j * n] = 0;
      const A = { rows: n, cols: n, ld: n, data };
      const ref = referenceLu(A, (v) => v);
      const f = luFactor(A, { backend });
      expect(f.lu.data).toEqual(ref.lu);
      expect(f.pivots).toEqual(ref.pivots);
      expect(f.firstZeroPivot).toBe(sparse ? 0 : -1);
      const a = Float64Array.from(data), pivots = new Int32Array(n);
      expect(blockedLu('f64')(a, n, pivots, LU_PANEL)).toBe(f.firstZeroPivot);
    }), { numRuns: 40 });
  });

  it('solves within fp32 accuracy, reports a zero pivot, validates', () => {
    const A = randsvd(30, 10, 3);
    const b = Float64Array.from({ length: 30 }, (_, i) => i - 15);
    const x = luSolveF32(luFactorF32(A), b);
    expect(relativeError(x, luSolve(luFactor(A), b))).toBeLessThan(1e-5);
    expect(luFactorF32({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 2, 2, 4) }).firstZeroPivot).toBe(1);
    expectModprec(() => luFactorF32({ rows: 2, cols: 3, ld: 2, data: new Float64Array(6) }), 'DIMENSION_MISMATCH', 'A');
    expectModprec(() => luSolveF32(luFactorF32(A), new Float64Array(3)), 'DIMENSION_MISMATCH', 'b');
    for (const backend of ['gpu', 'fast', 1] as never[]) {
      expectModprec(() => luFactorF32(A, { backend }), 'INVALID_OPTION', 'options.backend');
      expectModprec(() => luFactor(A, { backend }), 'INVALID_OPTION', 'options.backend');
    }
  });

  it('factorises matrices much larger than the last one, then smaller ones, from the same WebAssembly memory', () => {
    // The memory grows for the larger matrix (typed arrays over it are made after growing); the factors are copies.
    for (const n of [5, 130, 9]) {
      const rnd = seededRandom(n);
      const A = { rows: n, cols: n, ld: n, data: Float64Array.from({ length: n * n }, () => rnd.nextDouble() - 0.5) };
      const w = luFactor(A, { backend: 'wasm' }), j = luFactor(A, { backend: 'js' });
      expect(w.lu.data).toEqual(j.lu.data);
      expect(w.pivots).toEqual(j.pivots);
      const w32 = luFactorF32(A, { backend: 'wasm' });
      expect(w32.lu).toEqual(luFactorF32(A, { backend: 'js' }).lu);
      expect(w32.lu.buffer).not.toBe(w.lu.data.buffer);
    }
  });
});

/** x = U⁻¹·L⁻¹·P·b column by column in the kind (`round`), a zero x_j skipped: the oracle of luSolve and luSolveF32. */
function referenceSolve(lu: ArrayLike<number>, pivots: Int32Array, b: Float64Array, round: (v: number) => number): number[] {
  const n = pivots.length;
  const x = Array.from(b, round);
  for (let k = 0; k < n; k++) { const p = pivots[k]!; const t = x[k]!; x[k] = x[p]!; x[p] = t; }
  for (let j = 0; j < n; j++) if (x[j] !== 0) for (let i = j + 1; i < n; i++) x[i] = round(x[i]! - round(lu[i + j * n]! * x[j]!));
  for (let j = n - 1; j >= 0; j--) {
    x[j] = round(x[j]! / lu[j + j * n]!);
    if (x[j] !== 0) for (let i = 0; i < j; i++) x[i] = round(x[i]! - round(lu[i + j * n]! * x[j]!));
  }
  return x;
}

describe('luSolve and luSolveF32', () => {
  it('equal the column-oriented substitutions bit for bit on both CPU backends (zeros and −0 in b included)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 70 }), fc.integer(), backendOf, (n, seed, backend) => {
      const rnd = seededRandom(seed);
      const A = { rows: n, cols: n, ld: n, data: Float64Array.from({ length: n * n }, () => rnd.nextDouble() - 0.5) };
      const b = Float64Array.from({ length: n }, () => { const u = rnd.nextUint32() % 4; return u === 0 ? 0 : u === 1 ? -0 : rnd.nextDouble() * 4 - 2; });
      const f = luFactor(A), g = luFactorF32(A);
      const before = Array.from(b);
      const x = luSolve(f, b, { backend }), y = luSolveF32(g, b, { backend });
      expect(Array.from(x)).toEqual(referenceSolve(f.lu.data, f.pivots, b, (v) => v));
      expect(Array.from(y)).toEqual(referenceSolve(g.lu, g.pivots, b, Math.fround));
      Array.from(b).forEach((v, i) => expect(Object.is(v, before[i])).toBe(true)); // b not modified (−0 included)
    }), { numRuns: 40 });
  });

  it('a solver made once keeps solving with its own factors while other factorisations use the memory in between', () => {
    const make = (seed: number, n: number): DenseMatrix => { const rnd = seededRandom(seed); return { rows: n, cols: n, ld: n, data: Float64Array.from({ length: n * n }, () => rnd.nextDouble() - 0.5) }; };
    const A = make(1, 40), b = Float64Array.from({ length: 40 }, (_, i) => i);
    const f = luFactorF32(A, { backend: 'wasm' });
    const solve = packedSolver('f32', { n: 40, a: f.lu, pivots: f.pivots }, { backend: 'wasm' });
    const first = Array.from(solve(b));
    luFactorF32(make(2, 60), { backend: 'wasm' });       // overwrites the memory (and grows it)
    luSolve(luFactor(make(3, 30), { backend: 'wasm' }), b.subarray(0, 30).slice(), { backend: 'wasm' });
    expect(Array.from(solve(b))).toEqual(first);
    expect(first).toEqual(referenceSolve(f.lu, f.pivots, b, Math.fround));
  });
});

describe('iterativeRefinement', () => {
  const n = 60;
  const xTrue = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
  const times = (A: DenseMatrix, x: Float64Array): Float64Array => {
    const b = new Float64Array(n);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) b[i] += A.data[i + j * n]! * x[j]!;
    return b;
  };

  it.each([1e2, 1e5, 1e7])('κ = %d: fp32 LU + dd residual reaches an fp64 solve\'s forward error (or better)', (cond) => {
    const A = randsvd(n, cond, 11);
    const b = times(A, xTrue);
    // The exact solution of the stored system, to far beyond fp64: fp64 LU refined with dd residuals, dd solution.
    const exact = toArray(iterativeRefinement(A, b, { factorization: 'f64', residualArithmetic: formats.dd, storage: formats.dd }).x);
    const fp64 = relativeError(luSolve(luFactor(A), b), exact);
    const ir = iterativeRefinement(A, b, { residualArithmetic: formats.dd });
    expect(ir.status).toBe('converged');
    expect(relativeError(toArray(ir.x), exact)).toBeLessThanOrEqual(2 * fp64);
    // fp64 residuals: a backward-stable answer (forward error within κ·n·u of the exact one)
    const ir64 = iterativeRefinement(A, b);
    expect(ir64.status).toBe('converged');
    expect(relativeError(toArray(ir64.x), exact)).toBeLessThanOrEqual(cond * n * 2 ** -53 * 10);
    expect(relativeResidual({ n, A: undefined as never, dense: A, b, reference: exact }, toArray(ir64.x))).toBeLessThan(1e-14);
  });

  it.each([[1e3, 3], [1e5, 4], [1e6, 5], [1e7, 6]])('κ = %d (seed %d): fp32 LU + fp64 residual reaches a forward error within 2× of an fp64 LU solve\'s', (cond, seed) => {
    const A = randsvd(n, cond, seed);
    const b = times(A, xTrue);
    const exact = toArray(iterativeRefinement(A, b, { factorization: 'f64', residualArithmetic: formats.dd, storage: formats.dd }).x);
    const fp64 = relativeError(luSolve(luFactor(A), b), exact);
    const ir = iterativeRefinement(A, b);
    expect(ir.status).toBe('converged');
    expect(relativeError(toArray(ir.x), exact)).toBeLessThanOrEqual(2 * fp64);
    // Averaging at the floor: more corrections than reaching it took, the mean counted as one step.
    expect(ir.iterations).toBeGreaterThan(16);
    expect(ir.history.length).toBe(ir.iterations + 1);
    // and it is still backward stable: the mean of backward-stable iterates
    expect(relativeResidual({ n, A: undefined as never, dense: A, b, reference: exact }, toArray(ir.x))).toBeLessThan(1e-14);
  });

  it('averaging: 0 stops where corrections stop shrinking; a small maxIterations averages what it has', () => {
    const A = randsvd(n, 1e5, 4);
    const b = times(A, xTrue);
    const plain = iterativeRefinement(A, b, { averaging: 0 });
    expect(plain.status).toBe('converged');
    expect(plain.iterations).toBeLessThan(12);
    const capped = iterativeRefinement(A, b, { maxIterations: plain.iterations + 3 });
    expect(capped.status).toBe('converged');
    expect(capped.iterations).toBe(plain.iterations + 3);
    expect(capped.history.length).toBe(capped.iterations + 1);
    expect(capped.trueResidualNorm).toBeLessThan(1e-14);
  });

  it('history: the first solve\'s residual, then one per correction; the last is the true residual', () => {
    const A = randsvd(n, 1e4, 5);
    const b = times(A, xTrue);
    const r = iterativeRefinement(A, b);
    expect(r.history.length).toBe(r.iterations + 1);
    expect(r.history[0]).toBeGreaterThan(1e-9);         // an fp32 solve
    expect(r.history[0]).toBeLessThan(1e-4);
    expect(r.residualNorm).toBe(r.trueResidualNorm);
    expect(r.trueResidualNorm).toBeLessThan(1e-14);
  });

  it('dd residual and dd solution storage go past fp64; the solution is stored in dd', () => {
    const A = randsvd(n, 1e3, 9);
    const b = times(A, xTrue);
    const r = iterativeRefinement(A, b, { residualArithmetic: formats.dd, storage: formats.dd });
    expect(r.status).toBe('converged');
    expect(r.x.accessor.storage.name).toBe('dd');
    expect(r.trueResidualNorm).toBeLessThan(1e-28);
  });

  it('b = 0 gives x = 0', () => {
    const r = iterativeRefinement(randsvd(4, 10, 1), new Float64Array(4));
    expect(r.status).toBe('converged');
    expect([...toArray(r.x)]).toEqual([0, 0, 0, 0]);
  });

  it('a singular factor reports the residual of x = 0 (‖b‖/‖b‖ = 1), not 1/‖b‖', () => {
    const r = iterativeRefinement({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(1, 1, 1, 1) }, [1, 2]);
    expect([r.status, r.breakdown, r.residualNorm, r.trueResidualNorm]).toEqual(['breakdown', 'singular-factor', 1, 1]);
  });

  it('A beyond binary32\'s range: the fp32 LU factorises a power-of-two scaled A (was non-finite / singular-factor)', () => {
    const base = randsvd(5, 10, 4);
    for (const scale of [2 ** 140, 2 ** -140, 2 ** 1000, 2 ** -1000]) {
      const A = { ...base, data: base.data.map((v) => v * scale) };
      const b = Float64Array.from({ length: 5 }, (_, i) => i - 1.5);
      for (const backend of ['wasm', 'js'] as const) {
        const r = iterativeRefinement(A, b, { backend });
        expect(r.status, `${scale} ${backend}`).toBe('converged');
        // x = x₁/scale for x₁ the solution of base·x₁ = b: check base·(x·scale) = b
        const x = toArray(r.x);
        let rMax = 0;
        for (let i = 0; i < 5; i++) {
          let t = b[i]!;
          for (let j = 0; j < 5; j++) t -= base.data[i + 5 * j]! * (x[j]! * scale);
          rMax = Math.max(rMax, Math.abs(t));
        }
        expect(rMax / 2.5, `${scale} ${backend}`).toBeLessThan(1e-13);
      }
    }
  });

  it('never returns NaN: a non-finite A or residual is the breakdown non-finite with a finite x', () => {
    const A = { rows: 2, cols: 2, ld: 2, data: Float64Array.of(4, 1, NaN, 4) };
    const r = iterativeRefinement(A, [5, 5]);
    expect([r.status, r.breakdown]).toEqual(['breakdown', 'non-finite']);
    expect([...toArray(r.x)].every(Number.isFinite)).toBe(true);
  });
  it('a solution that underflows is not "converged": b = [5e-324, 5e-324] stagnates at x = 0 with residual 1', () => {
    const A = { rows: 2, cols: 2, ld: 2, data: Float64Array.of(4, 1, 1, 4) };
    const r = iterativeRefinement(A, [5e-324, 5e-324]);
    expect([r.status, r.breakdown, r.residualNorm]).toEqual(['breakdown', 'stagnation', 1]);
  });
  it('b beyond binary32\'s range: the fp32 LU solves a power-of-two scaled b (was x = NaN for b = 1e39)', () => {
    const A = randsvd(5, 10, 3);
    for (const scale of [5e39, 1e300, 1e-40, 1e-300]) {
      const b = Float64Array.from({ length: 5 }, (_, i) => scale * (i - 1.5));
      for (const backend of ['wasm', 'js'] as const) {
        const r = iterativeRefinement(A, b, { backend });
        expect(r.status, `${scale} ${backend}`).toBe('converged');
        // ‖b − A·x‖∞ / ‖b‖∞ computed on b and x scaled back by 1/scale (exact for the powers of ten's nearest doubles
        // up to a rounding each, far below the threshold)
        const x = toArray(r.x);
        let rMax = 0, bMax = 0;
        for (let i = 0; i < 5; i++) {
          let t = b[i]! / scale;
          for (let j = 0; j < 5; j++) t -= A.data[i + 5 * j]! * (x[j]! / scale);
          rMax = Math.max(rMax, Math.abs(t)); bMax = Math.max(bMax, Math.abs(b[i]! / scale));
        }
        expect(rMax / bMax, `${scale} ${backend}`).toBeLessThan(1e-13);
      }
    }
  });
  it('runs on the CPU backends with the same bits; the GPU is a typed error, not a silent CPU run', () => {
    const A = randsvd(70, 1e4, 8);
    const b = Float64Array.from({ length: 70 }, (_, i) => Math.cos(i));
    const runs = (['wasm', 'js', 'cpu'] as const).map((backend) => iterativeRefinement(A, b, { backend }));
    for (const r of runs) {
      expect(r.history).toEqual(runs[0]!.history);
      expect([...toArray(r.x)]).toEqual([...toArray(runs[0]!.x)]);
    }
    for (const backend of ['gpu', 'tpu', 3] as never[]) expectModprec(() => iterativeRefinement(A, b, { backend }), 'INVALID_OPTION', 'options.backend');
  });
});
