/**
 * End to end: a tiny study runs every kernel, configuration, the roofline and the precision sweep, and
 * every figure is finite and plausible. Accuracy thresholds are derived from unit roundoffs: each
 * product-sum error must respect its a-priori bound (Higham γ_n plus storage roundings, recomputed here
 * independently of the study's own `bound` column for the arithmetic-only part), TRSV errors the
 * condition-number bound of Higham Thm 8.5, and every run whose storage is narrower than fp64 must show
 * its storage rounding (an error far above fp64 level).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { tinyStudy, tinyOptions } from './study-fixture.js';
import { asArithmetic, asStorage, findFormat } from '../../src/formats/common/registry.js';
import { trsvCase } from '../../app/study/cases/trsv-case.js';
import { dotCase } from '../../app/study/cases/dot-case.js';
import { compound, integerRoundingTerms, roundingTerms } from '../../app/study/a-priori-bound.js';
import { bytesPerElement, integerImage, resolveConfiguration } from '../../app/study/operands.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { MEASUREMENT_COLUMNS } from '../../app/report/csv.js';
import { luFactor } from '../../src/index.js';
import { randomValues, studyRandom } from '../../app/study/random-data.js';
import { splitFactors } from '../../app/study/cases/trsv-case.js';
import type { Measurement, StudyResult } from '../../app/study/types.js';

let result: StudyResult;
beforeAll(async () => { result = await tinyStudy(); });

const bits = (name: string): number => findFormat(name)?.storage?.significandBits ?? findFormat(name)?.arithmetic?.significandBits ?? NaN;
const rows = (experiment: Measurement['experiment']) => result.measurements.filter((m) => m.experiment === experiment);

describe('tiny study: schema', () => {
  it('completes with every field of every row present and typed', () => {
    expect(result.schema).toBe('modprec-study/1');
    expect(result.status).toBe('complete');
    expect(result.run.machine.length).toBeGreaterThan(0);
    expect(result.run.versions.node).toBe(process.version);
    expect(result.notes.filter((n) => n.includes('failed'))).toEqual([]);
    for (const m of result.measurements) {
      expect(Object.keys(m).sort()).toEqual([...MEASUREMENT_COLUMNS].sort());
      for (const k of ['kernel', 'storage', 'arithmetic', 'backend', 'adapter', 'problem'] as const) expect(typeof m[k]).toBe('string');
      expect(Number.isInteger(m.size) && m.size > 0).toBe(true);
    }
  });

  it('measures every kernel in every configuration, on every problem and seed', () => {
    const options = tinyOptions();
    const acc = rows('accuracy');
    for (const kernel of options.kernels) {
      for (const c of options.configurations) {
        const mine = acc.filter((m) => m.kernel === kernel && m.storage === c.storage && m.arithmetic === c.arithmetic);
        expect(mine.length, `${kernel} ${c.storage}/${c.arithmetic}`).toBeGreaterThan(0);
        expect(new Set(mine.map((m) => m.seed))).toEqual(new Set(options.seeds));
      }
    }
    const problems = new Set(acc.filter((m) => m.kernel === 'ell-spmv').map((m) => m.problem));
    for (const p of ['laplacian-2d', 'laplacian-3d', 'banded', 'irregular', 'tridiagonal']) expect(problems).toContain(p);
  });
});

describe('tiny study: accuracy is plausible (thresholds from unit roundoffs)', () => {
  it('every relative error is finite and within its a-priori bound', () => {
    for (const m of rows('accuracy')) {
      expect(Number.isFinite(m.relativeError) && m.relativeError! >= 0, JSON.stringify(m)).toBe(true);
      // Left empty only for double-double arithmetic over a storage that rounds the inputs (see KernelCase.storedReference).
      const wideAndRounding = m.precisionBits! > 53 && !['f64', 'dd', 'dd-split'].includes(m.storage);
      if (wideAndRounding) expect(m.arithmeticError).toBeNull();
      else expect(Number.isFinite(m.arithmeticError) && m.arithmeticError! >= 0).toBe(true);
      if (m.kernel !== 'trsv') {
        expect(m.bound, `${m.kernel} has a bound`).not.toBeNull();
        expect(m.relativeError!, `${m.kernel} ${m.storage}/${m.arithmetic} ${m.problem} n=${m.size}`).toBeLessThanOrEqual(m.bound!);
      }
    }
  });

  it('a storage narrower than fp64 shows its rounding: error above 2^-p_s / 1000, far above fp64 level', () => {
    for (const m of rows('accuracy')) {
      const p = bits(m.storage);
      // Laplacians and the hand-written matrices have values exact in every format; x is random.
      if (p < 53) expect(m.relativeError!, `${m.kernel} ${m.storage}/${m.arithmetic}`).toBeGreaterThan(2 ** -p / 1000);
    }
  });

  it('DOT: fp32 storage read in fp64 keeps fp64 arithmetic accuracy on the stored values (the accessor gain)', () => {
    for (const m of rows('accuracy').filter((r) => r.kernel === 'dot' && r.storage === 'f32' && r.arithmetic === 'f64')) {
      const { x, y } = dotInputs(m.size, m.problem as 'uniform' | 'normal', m.seed!);
      let sumAbs = 0;
      for (let i = 0; i < m.size; i++) sumAbs += Math.abs(x[i]! * y[i]!);
      sumAbs *= 1 + (m.size + 2) * 2 ** -52;
      const ref = dotCase(m.size, m.problem as 'uniform' | 'normal', m.seed!).storedReference(resolveConfiguration({ storage: 'f32', arithmetic: 'f64', backend: 'cpu' }));
      const stored = Math.abs(ref.hi[0]! + ref.lo[0]!);
      // |ŷ − x̂ᵀŷ| ≤ γ_n(2^-53) Σ|x̂ᵢŷᵢ| ≤ γ_n(2^-53)(1 + 2^-24)² Σ|xᵢyᵢ|, plus the reference's own error.
      const allowed = (gamma(m.size, 2 ** -53) * (1 + 2 ** -24) ** 2 + gamma(m.size + 1, 2 ** -104)) * sumAbs;
      expect(m.arithmeticError! * stored).toBeLessThanOrEqual(allowed * (1 + 2 ** -40));
      // …while fp32 arithmetic on the same stored values may err by up to γ_n(2^-24): the fp64 bound is 2^29 times smaller.
    }
  });

  it('TRSV errors respect the condition-number bound of Higham Thm 8.5 with storage roundings', async () => {
    for (const m of rows('accuracy').filter((r) => r.kernel === 'trsv')) {
      const [which, dist] = m.problem.split('-') as ['upper' | 'lower', 'uniform' | 'normal'];
      const bound = trsvRelativeBound(m, which, dist);
      expect(m.relativeError!, `${m.storage}/${m.arithmetic} ${m.problem} n=${m.size}`).toBeLessThanOrEqual(bound);
    }
  });
});

function dotInputs(n: number, dist: 'uniform' | 'normal', seed: number) {
  return { x: randomValues(n, dist, studyRandom(seed, 1)), y: randomValues(n, dist, studyRandom(seed, 2)) };
}

/**
 * Higham Thm 8.5 with the study's roundings: (T + F)x̂ = b + Δb with |F| ≤ ε|T|, |Δb| ≤ u_s|b|,
 * ε = (1+u_s)(1+u_o)(1+u_r)²(1+γ_{n+1}(u_a)) − 1 (storage of T, each solved xⱼ stored and read back,
 * reads, the substitution). Then ‖x̂ − x‖∞/‖x‖∞ ≤ (ε cond(T, x) + u_s ‖|T⁻¹||b|‖∞/‖x‖∞) / (1 − ε cond(T)),
 * plus u_o for the final store; the 2-norm ratio is at most √n times that. |T⁻¹| is formed in fp64 (accurate for these small, well-scaled
 * factors) and the result doubled as a margin for that.
 */
function trsvRelativeBound(m: Measurement, which: 'upper' | 'lower', dist: 'uniform' | 'normal'): number {
  const n = m.size;
  const s = asStorage(m.storage);
  const a = asArithmetic(m.arithmetic);
  // Scaled integer storage: T's entries err by ≤ s_k/2 (row scale, absolute) + 2^-53 relative; b and x live
  // in the arithmetic's format (b rounded to it), so there is no output rounding.
  const integer = s.isInteger;
  const r = integer ? integerRoundingTerms(a, 0) : roundingTerms(s, a, true);
  const bRounding = integer ? (a.significandBits < 53 ? a.unitRoundoff : 0) : r.storage;
  const eps = compound(r.storage, r.output, r.read, r.read, gamma(n + 1, r.arithmetic), gamma(n + 1, 2 ** -104));
  const c = trsvCase(n, which, dist, m.seed!);
  const ref = c.reference();
  const x = Array.from(ref.hi, (h, i) => h + ref.lo[i]!);
  const { t, b } = trsvInputs(n, which, dist, m.seed!);
  const inv = triangularInverse(n, t, which);
  const rowScales = integer ? integerImage(s, t, n).scales : new Float64Array(n);
  let condTx = 0;
  let condT = 0;
  let bTerm = 0;
  let absTerm = 0;
  let absCond = 0;
  const xMax = Math.max(...x.map(Math.abs));
  for (let i = 0; i < n; i++) {
    let row = 0;
    let rowT = 0;
    let rowB = 0;
    let rowAbs = 0;
    let rowAbsCond = 0;
    for (let k = 0; k < n; k++) {
      let tx = 0;
      let tt = 0;
      let fx = 0; // Σ over T's nonzeros in row k of |x_j|: the absolute (scaled-integer) perturbation acts there
      let count = 0;
      for (let j = 0; j < n; j++) {
        const v = Math.abs(t[k + j * n]!);
        tx += v * Math.abs(x[j]!);
        tt += v;
        if (v !== 0) { fx += Math.abs(x[j]!); count++; }
      }
      row += Math.abs(inv[i + k * n]!) * tx;
      rowT += Math.abs(inv[i + k * n]!) * tt;
      rowB += Math.abs(inv[i + k * n]!) * Math.abs(b[k]!);
      rowAbs += Math.abs(inv[i + k * n]!) * (rowScales[k]! / 2) * fx;
      rowAbsCond += Math.abs(inv[i + k * n]!) * (rowScales[k]! / 2) * count;
    }
    condTx = Math.max(condTx, row / xMax);
    condT = Math.max(condT, rowT);
    bTerm = Math.max(bTerm, rowB / xMax);
    absTerm = Math.max(absTerm, rowAbs / xMax);
    absCond = Math.max(absCond, rowAbsCond);
  }
  const denominator = 1 - eps * condT - absCond;
  if (denominator <= 0) return Infinity;
  const forward = (eps * condTx + bRounding * bTerm + absTerm + (integer ? 0 : r.storageEta)) / denominator;
  return 2 * Math.sqrt(n) * (forward + r.output * (1 + forward));
}

/** The factor and right-hand side of a TRSV case, rebuilt from the same seeds. */
function trsvInputs(n: number, which: 'upper' | 'lower', dist: 'uniform' | 'normal', seed: number) {
  const a = randomValues(n * n, dist, studyRandom(seed, 0));
  const lu = luFactor({ rows: n, cols: n, ld: n, data: a });
  const { L, U } = splitFactors(n, lu.lu.data);
  return { t: which === 'upper' ? U : L, b: randomValues(n, dist, studyRandom(seed, 1)) };
}

/** T⁻¹ of a triangular column-major matrix by substitution on unit vectors (fp64). */
function triangularInverse(n: number, t: Float64Array, which: 'upper' | 'lower'): Float64Array {
  const inv = new Float64Array(n * n);
  for (let col = 0; col < n; col++) {
    const x = new Float64Array(n);
    x[col] = 1;
    const order = which === 'upper' ? Array.from({ length: n }, (_, k) => n - 1 - k) : Array.from({ length: n }, (_, k) => k);
    for (const i of order) {
      let s = x[i]!;
      const [from, to] = which === 'upper' ? [i + 1, n] : [0, i];
      for (let j = from; j < to; j++) s -= t[i + j * n]! * x[j]!;
      x[i] = which === 'upper' ? s / t[i + i * n]! : s;
    }
    inv.set(x, col * n);
  }
  return inv;
}

describe('tiny study: speed, roofline and sweep figures are finite and positive', () => {
  it('speed rows: positive time, traffic and rates; fp64/fp64 has speed-up 1', () => {
    const speed = rows('speed');
    expect(speed.length).toBeGreaterThan(0);
    for (const m of speed) {
      expect(m.seconds! > 0 && Number.isFinite(m.seconds!)).toBe(true);
      expect(m.gflops! > 0 && Number.isFinite(m.gflops!)).toBe(true);
      expect(m.bytes! > 0 && m.gbps! > 0).toBe(true);
      expect(m.speedup! > 0 && Number.isFinite(m.speedup!)).toBe(true);
      if (m.storage === 'f64' && m.arithmetic === 'f64') expect(m.speedup).toBe(1);
      // Traffic: at least the storage bytes of every value read once.
      const element = bytesPerElement(asStorage(m.storage))!;
      expect(m.bytes!).toBeGreaterThanOrEqual(element * m.size);
    }
  });

  it('roofline rows: each configuration at each intensity, FLOPs = intensity × length', () => {
    const roof = rows('roofline');
    expect(new Set(roof.map((m) => m.intensity))).toEqual(new Set([2, 16]));
    for (const m of roof) {
      expect(m.flops).toBe(m.intensity! * m.size);
      expect(m.gflops! > 0 && Number.isFinite(m.gflops!)).toBe(true);
      expect(m.speedup! > 0).toBe(true);
    }
    expect(roof.filter((m) => m.variant === 'plain').length).toBeGreaterThan(0);
    expect(roof.filter((m) => m.variant === 'accessor').length).toBeGreaterThan(0);
  });

  it('precision sweep: MPFR at 106…1696 bits and the library formats, with positive rates', () => {
    const sweep = rows('precision');
    const mpfrBits = new Set(sweep.filter((m) => m.storage.startsWith('mpfr')).map((m) => m.precisionBits));
    expect(mpfrBits).toEqual(new Set([106, 212, 424, 848, 1696]));
    expect(sweep.some((m) => m.storage === 'f64')).toBe(true);
    for (const m of sweep) expect(m.gflops! > 0 && Number.isFinite(m.gflops!)).toBe(true);
  });

  it('precision sweep: every library format is measured exactly and keeps at least the bits its a-priori bound promises', () => {
    const library = rows('precision').filter((m) => !m.storage.startsWith('mpfr'));
    expect(new Set(library.map((m) => m.kernel))).toEqual(new Set(['gemv', 'waxpby']));
    for (const m of library) {
      expect(m.boundBits, m.storage).not.toBeNull();
      expect(m.boundBits!).toBeGreaterThan(m.precisionBits! - 16); // γ_64 and the condition cost a few bits, not more
      expect(m.accuracyBits!, `${m.kernel} ${m.storage}`).toBeGreaterThanOrEqual(m.boundBits!);
    }
  });
});
