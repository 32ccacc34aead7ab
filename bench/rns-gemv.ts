/**
 * GEMV y := αAx + βy in RNS arithmetic (column-major mp_array A, the seeds' Table 5 setting 1000×1000) against
 * MPFR (gmp-wasm raw bindings, preallocated, row sums of mpfr_mul + mpfr_add then α, β). MFLOP/s count 2mn
 * operations of p bits. Sizes are reduced where a run would take minutes (stated in the table).
 * Run: npx tsc -p tsconfig.json && node dist/bench/rns-gemv.js
 */
import { rnsFormat } from '../src/formats/rns/register.js';
import { range, colMajor, rowMajor, gemv } from '../src/index.js';
import type { RnsNumber } from '../src/formats/rns/rns-number.js';
import { RNS_STATS, resetRnsStats } from '../src/formats/rns/stats.js';
import { PRECISIONS, fmt, makeValues, minTime, mpfr, rnsModuliSet, sizeFor, toRnsArray, type DataKind } from './rns-common.js';
import { markdownTable, writePerformanceSection, writeResults, machineDescription, today } from './report.js';
import { FRESH_DETACHED_NOTE, detachOneBuffer, freshProcessTimes, isFreshChild, reportFreshTimes } from './fresh-process.js';

const N = Number(process.env.RNS_GEMV_N ?? 1000);
// Full-precision inputs round every product (about n·p/10 operations each) and are built through BigInt:
// smaller matrices. The RNS arrays of the top precision take 4·131 bytes per element: 500×500 there.
const REDUCED: Record<string, number> = {
  'double:1696': N / 2, 'full:106': N * 0.3, 'full:212': N / 4, 'full:424': N * 0.15, 'full:848': N / 10, 'full:1696': N * 0.06,
};
// RNS times in a fresh process first (nothing detached yet), then everything here after a detach (see fresh-process.ts).
const fresh = isFreshChild ? {} : freshProcessTimes(import.meta.url);
const freshTimes: Record<string, number> = {};
if (!isFreshChild) detachOneBuffer();
const mp = isFreshChild ? null : await mpfr();
const rows: (string | number)[][] = [];
const results: unknown[] = [];
const alpha = 0.75, beta = -0.5;
for (const kind of ['double', 'full'] as DataKind[]) {
  for (const p of PRECISIONS) {
    const set = rnsModuliSet(p);
    const f = rnsFormat(p);
    const n = Math.round(sizeFor(N, p, kind, REDUCED));
    const av = makeValues(set, n * n, kind, 3), xv = makeValues(set, n, kind, 4), yv = makeValues(set, n, kind, 5);
    const A = range(colMajor<2, RnsNumber>({ size: [n, n], storage: f, arithmetic: f, data: toRnsArray(set, av) }));
    const x = range(rowMajor<1, RnsNumber>({ size: [n], storage: f, arithmetic: f, data: toRnsArray(set, xv) }));
    const y0 = toRnsArray(set, yv);
    const yd = toRnsArray(set, yv);
    const y = range(rowMajor<1, RnsNumber>({ size: [n], storage: f, arithmetic: f, data: yd }));
    // β ≠ 0: every run starts from the same y
    const reset = () => { yd.digits.set(y0.digits); yd.sign.set(y0.sign); yd.exp.set(y0.exp); yd.evalFrac.set(y0.evalFrac); yd.evalExp.set(y0.evalExp); };
    resetRnsStats();
    gemv({ alpha, A, x, beta, y, trans: 'N' });
    const stats = { ...RNS_STATS };
    const reps = p >= 848 || kind === 'full' ? 2 : 3;
    const tRns = minTime(() => { reset(); gemv({ alpha, A, x, beta, y, trans: 'N' }); }, reps, 1);
    if (isFreshChild) { freshTimes[`${kind}:${p}`] = tRns; continue; }
    const tFresh = fresh[`${kind}:${p}`]!;
    const { b, make, load } = mp!;
    const ma = load(av, p), mx = load(xv, p), my = load(yv, p);
    const s = make(p), t = make(p), ym = make(p);
    const tMpfr = minTime(() => {
      for (let i = 0; i < n; i++) {
        b.mpfr_set_d(s, 0, 0);
        for (let j = 0; j < n; j++) { b.mpfr_mul(t, ma[i + j * n]!, mx[j]!, 0); b.mpfr_add(s, s, t, 0); }
        b.mpfr_mul_d(s, s, alpha, 0);
        b.mpfr_mul_d(ym, my[i]!, beta, 0);
        b.mpfr_add(ym, ym, s, 0);
      }
    }, reps, 1);
    for (const v of [...ma, ...mx, ...my, s, t, ym]) { b.mpfr_clear(v); b.mpfr_t_free(v); }
    const flops = 2 * n * n;
    const row = { kind, precision: p, moduli: set.size, n, rnsMsFresh: tFresh, rnsMs: tRns, mpfrMs: tMpfr, rnsMflopsFresh: flops / tFresh / 1e3, rnsMflops: flops / tRns / 1e3, mpfrMflops: flops / tMpfr / 1e3, speedupFresh: tMpfr / tFresh, speedup: tMpfr / tRns, roundingsPerOp: stats.roundings / flops, evalRecomputesPerOp: stats.evaluations / flops };
    results.push(row);
    rows.push([kind, p, set.size, `${n}×${n}`, fmt(tFresh), fmt(tRns), fmt(tMpfr), fmt(row.rnsMflopsFresh), fmt(row.rnsMflops), fmt(row.mpfrMflops), fmt(row.speedupFresh), fmt(row.speedup), fmt(100 * row.roundingsPerOp)]);
    console.log(rows[rows.length - 1]!.join('\t'));
  }
}
if (isFreshChild) {
  reportFreshTimes(freshTimes);
  process.exit(0);
}
writeResults('rns-gemv', results);
const table = markdownTable(['inputs', 'bits', 'moduli', 'size', 'RNS ms fresh', 'RNS ms detached', 'MPFR ms', 'RNS MFLOP/s fresh', 'RNS MFLOP/s detached', 'MPFR MFLOP/s', 'RNS/MPFR fresh', 'RNS/MPFR detached', 'roundings %'], rows);
console.log(table);
writePerformanceSection('rns-gemv', `### RNS GEMV vs MPFR (gmp-wasm)

${machineDescription()}, ${today()}. \`node dist/bench/rns-gemv.js\`. y := 0.75·A·x − 0.5·y, A column-major
mp_array, through the core's generated GEMV (loop order \`'auto'\`, which is \`dot-blocked\` here: 16 rows advance
together, column by column, each in its own open sum; recursive accumulation) against MPFR raw bindings
(row sums of mpfr_mul + mpfr_add). MFLOP/s count 2mn operations of p bits. Minimum of 2–3 runs after a warm-up.
The seeds' size is 1000×1000; smaller sizes (table) keep each case under a minute on this 2-core machine.

${FRESH_DETACHED_NOTE}

${table}`);
