/**
 * Where the time of RNS arithmetic goes, per precision: the parts of one operation timed alone (ns per call).
 * - residue products: n double multiplications x_i·y_i, no reduction;
 * - + modular reduction: the same with the floor-based reduction (the residue loop of a multiplication);
 * - multiply: the whole rnsMul without rounding (adds the interval-evaluation update and bookkeeping);
 * - add: rnsAdd of operands with different exponents (alignment by |2^γ|_{m_i}, one reduction per residue);
 * - rounding: rounding a 2p-bit product to p bits (exact low bits in 21-bit limbs, residues of the remainder,
 *   scaling by |2^-k|_{m_i});
 * - interval evaluation: I(X/M) recomputed from the residues (fractional sum with refinement);
 * - fma: s := x·y + s over 4096 terms (in place, so after 8 terms the sum is open: exact, no eval per term);
 * - kernel DOT per element: one multiply-add through the generated kernel, mp_array reads included.
 * Run: npx tsc -p tsconfig.json && node dist/bench/rns-profile.js
 */
import { rnsFormat } from '../src/formats/rns/register.js';
import { range, rowMajor, dot } from '../src/index.js';
import { RnsNumber } from '../src/formats/rns/rns-number.js';
import { rnsAdd, rnsMul, rnsFma } from '../src/formats/rns/arithmetic.js';
import { rnsFromDouble, rnsFromNumber } from '../src/formats/rns/convert-number.js';
import { roundSignificand } from '../src/formats/rns/rounding.js';
import { EVAL, evaluateSigned } from '../src/formats/rns/interval-evaluation.js';
import { PRECISIONS, fmt, makeValues, minTime, rnsModuliSet, toRnsArray } from './rns-common.js';
import { markdownTable, writePerformanceSection, writeResults, machineDescription, today } from './report.js';

const COUNT = 4096;
const rows: (string | number)[][] = [];
const results: unknown[] = [];
const perCall = (ms: number, calls: number) => (ms * 1e6) / calls;

for (const p of PRECISIONS) {
  const set = rnsModuliSet(p);
  const n = set.size;
  const m = set.moduli, inv = set.inverseModuli;
  const dx = makeValues(set, COUNT, 'double', 11), dy = makeValues(set, COUNT, 'double', 12);
  const xs = Array.from(dx.doubles!, (d) => rnsFromDouble(set, d)), ys = Array.from(dy.doubles!, (d) => rnsFromDouble(set, d));
  const full = makeValues(set, 256, 'full', 13).numbers!;
  const z = new RnsNumber(set);
  const out = new Float64Array(n);
  const products = minTime(() => {
    for (let k = 0; k < COUNT; k++) {
      const a = xs[k]!.digits, b = ys[k]!.digits;
      for (let i = 0; i < n; i++) out[i] = a[i]! * b[i]!;
    }
  }, 7, 3);
  const reduced = minTime(() => {
    for (let k = 0; k < COUNT; k++) {
      const a = xs[k]!.digits, b = ys[k]!.digits;
      for (let i = 0; i < n; i++) {
        const mm = m[i]!; const pr = a[i]! * b[i]!; const r = pr - Math.floor(pr * inv[i]!) * mm;
        out[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
      }
    }
  }, 7, 3);
  const mul = minTime(() => { for (let k = 0; k < COUNT; k++) rnsMul(z, xs[k]!, ys[k]!); }, 7, 3);
  const add = minTime(() => { for (let k = 0; k < COUNT; k++) rnsAdd(z, xs[k]!, ys[k]!); }, 7, 3);
  const fma = minTime(() => { rnsFromNumber(z, 0); for (let k = 0; k < COUNT; k++) rnsFma(z, xs[k]!, ys[k]!, z); }, 7, 3);
  // Rounding: exact 2p-bit products of full-precision operands (residues multiplied, interval evaluated from
  // the residues), copied into scratch numbers and rounded; the copy is timed apart and subtracted.
  const wide: RnsNumber[] = [];
  for (let k = 0; k + 1 < full.length; k += 2) {
    const a = full[k]!, b = full[k + 1]!, w = new RnsNumber(set);
    for (let i = 0; i < n; i++) {
      const mm = m[i]!; const pr = a.digits[i]! * b.digits[i]!; const r = pr - Math.floor(pr * inv[i]!) * mm;
      w.digits[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
    }
    evaluateSigned(set, w.digits, 0, 0, 0);
    w.exp = a.exp + b.exp; w.sign = a.sign ^ b.sign;
    w.lf = EVAL.lf; w.le = EVAL.le; w.uf = EVAL.uf; w.ue = EVAL.ue;
    wide.push(w);
  }
  const scratch = wide.map(() => new RnsNumber(set));
  const copy = () => wide.forEach((w, k) => {
    const c = scratch[k]!; c.digits.set(w.digits); c.sign = w.sign; c.exp = w.exp; c.lf = w.lf; c.le = w.le; c.uf = w.uf; c.ue = w.ue;
  });
  const copyTime = minTime(copy, 7, 3);
  const rounding = minTime(() => { copy(); for (const c of scratch) roundSignificand(c); }, 7, 3) - copyTime;
  const evaluation = minTime(() => { for (const w of full) evaluateSigned(set, w.digits, 0, 0, 0); }, 7, 3);
  // kernel DOT per element (double inputs)
  const f = rnsFormat(p);
  const x = range(rowMajor<1, RnsNumber>({ size: [COUNT], storage: f, arithmetic: f, data: toRnsArray(set, dx) }));
  const y = range(rowMajor<1, RnsNumber>({ size: [COUNT], storage: f, arithmetic: f, data: toRnsArray(set, dy) }));
  const o = range(rowMajor<1, RnsNumber>({ size: [1], storage: f, arithmetic: f }));
  const kernel = minTime(() => dot(x, y, { into: o }), 7, 3);
  const row = {
    precision: p, moduli: n,
    productsNs: perCall(products, COUNT), reducedNs: perCall(reduced, COUNT), mulNs: perCall(mul, COUNT), addNs: perCall(add, COUNT),
    fmaNs: perCall(fma, COUNT), roundingNs: perCall(rounding, wide.length), evaluationNs: perCall(evaluation, full.length), kernelDotNs: perCall(kernel, COUNT),
  };
  results.push(row);
  rows.push([p, n, fmt(row.productsNs), fmt(row.reducedNs), fmt(row.mulNs), fmt(row.addNs), fmt(row.fmaNs), fmt(row.kernelDotNs), fmt(row.roundingNs), fmt(row.evaluationNs)]);
  console.log(rows[rows.length - 1]!.join('\t'));
}
writeResults('rns-profile', results);
const table = markdownTable(['bits', 'moduli', 'residue products', '+ reduction', 'multiply', 'add', 'fma', 'kernel DOT / element', 'rounding', 'interval evaluation'], rows);
console.log(table);
writePerformanceSection('rns-profile', `### Where RNS time goes (ns per call)

${machineDescription()}, ${today()}. \`node dist/bench/rns-profile.js\`. Minimum of 7 runs. Operands from doubles
(no rounding needed) except for the rounding column (2p-bit products of full-precision operands rounded to p bits)
and the interval-evaluation column (full-precision significands, evaluated from their residues). *fma* and the
kernel DOT accumulate in place, so after 8 terms their sums are open (exact, no eval per term: docs/rns.md).

${table}`);
