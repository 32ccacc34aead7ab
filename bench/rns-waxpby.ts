/**
 * WAXPBY w := αx + βy in RNS arithmetic (mp_array vectors) against MPFR (gmp-wasm raw bindings: two mpfr_mul and
 * one mpfr_add per element into preallocated variables), n = 10^6 as in seed 001 (reduced at the top precisions).
 * MFLOP/s count 3n operations of p bits (seed 001: two multiplications and one addition per element).
 * Run: npx tsc -p tsconfig.json && node dist/bench/rns-waxpby.js
 */
import { rnsFormat } from '../src/formats/rns/register.js';
import { range, rowMajor, waxpby } from '../src/index.js';
import type { RnsNumber } from '../src/formats/rns/rns-number.js';
import { RNS_STATS, resetRnsStats } from '../src/formats/rns/stats.js';
import { PRECISIONS, fmt, makeValues, minTime, mpfr, rnsModuliSet, sizeFor, toRnsArray, type DataKind } from './rns-common.js';
import { markdownTable, writePerformanceSection, writeResults, machineDescription, today } from './report.js';
import { FRESH_DETACHED_NOTE, detachOneBuffer, freshProcessTimes, isFreshChild, reportFreshTimes } from './fresh-process.js';

const N = Number(process.env.RNS_WAXPBY_N ?? 1e6);
const REDUCED: Record<string, number> = {
  'double:848': N / 2, 'double:1696': N / 4,
  'full:106': N / 20, 'full:212': N / 25, 'full:424': N / 50, 'full:848': N / 100, 'full:1696': N / 200,
};
// RNS times in a fresh process first (nothing detached yet), then everything here after a detach (see fresh-process.ts).
const fresh = isFreshChild ? {} : freshProcessTimes(import.meta.url);
const freshTimes: Record<string, number> = {};
if (!isFreshChild) detachOneBuffer();
const mp = isFreshChild ? null : await mpfr();
const rows: (string | number)[][] = [];
const results: unknown[] = [];
const alpha = 0.1, beta = -3.25;
for (const kind of ['double', 'full'] as DataKind[]) {
  for (const p of PRECISIONS) {
    const set = rnsModuliSet(p);
    const f = rnsFormat(p);
    const n = Math.round(sizeFor(N, p, kind, REDUCED));
    const xv = makeValues(set, n, kind, 6), yv = makeValues(set, n, kind, 7);
    const x = range(rowMajor<1, RnsNumber>({ size: [n], storage: f, arithmetic: f, data: toRnsArray(set, xv) }));
    const y = range(rowMajor<1, RnsNumber>({ size: [n], storage: f, arithmetic: f, data: toRnsArray(set, yv) }));
    const w = range(rowMajor<1, RnsNumber>({ size: [n], storage: f, arithmetic: f }));
    resetRnsStats();
    waxpby(alpha, x, beta, y, w);
    const stats = { ...RNS_STATS };
    const reps = p >= 848 || kind === 'full' ? 2 : 3;
    const tRns = minTime(() => waxpby(alpha, x, beta, y, w), reps, 1);
    if (isFreshChild) { freshTimes[`${kind}:${p}`] = tRns; continue; }
    const tFresh = fresh[`${kind}:${p}`]!;
    const { b, make, load } = mp!;
    const mx = load(xv, p), my = load(yv, p), mw = Array.from({ length: n }, () => make(p));
    const ma = make(p), mb = make(p), t = make(p);
    b.mpfr_set_d(ma, alpha, 0);
    b.mpfr_set_d(mb, beta, 0);
    const tMpfr = minTime(() => {
      for (let i = 0; i < n; i++) { b.mpfr_mul(t, ma, mx[i]!, 0); b.mpfr_mul(mw[i]!, mb, my[i]!, 0); b.mpfr_add(mw[i]!, mw[i]!, t, 0); }
    }, reps, 1);
    for (const v of [...mx, ...my, ...mw, ma, mb, t]) { b.mpfr_clear(v); b.mpfr_t_free(v); }
    const flops = 3 * n;
    const row = { kind, precision: p, moduli: set.size, n, rnsMsFresh: tFresh, rnsMs: tRns, mpfrMs: tMpfr, rnsMflopsFresh: flops / tFresh / 1e3, rnsMflops: flops / tRns / 1e3, mpfrMflops: flops / tMpfr / 1e3, speedupFresh: tMpfr / tFresh, speedup: tMpfr / tRns, roundingsPerOp: stats.roundings / flops };
    results.push(row);
    rows.push([kind, p, set.size, n, fmt(tFresh), fmt(tRns), fmt(tMpfr), fmt(row.rnsMflopsFresh), fmt(row.rnsMflops), fmt(row.mpfrMflops), fmt(row.speedupFresh), fmt(row.speedup), fmt(100 * row.roundingsPerOp)]);
    console.log(rows[rows.length - 1]!.join('\t'));
  }
}
if (isFreshChild) {
  reportFreshTimes(freshTimes);
  process.exit(0);
}
writeResults('rns-waxpby', results);
const table = markdownTable(['inputs', 'bits', 'moduli', 'n', 'RNS ms fresh', 'RNS ms detached', 'MPFR ms', 'RNS MFLOP/s fresh', 'RNS MFLOP/s detached', 'MPFR MFLOP/s', 'RNS/MPFR fresh', 'RNS/MPFR detached', 'roundings %'], rows);
console.log(table);
writePerformanceSection('rns-waxpby', `### RNS WAXPBY vs MPFR (gmp-wasm)

${machineDescription()}, ${today()}. \`node dist/bench/rns-waxpby.js\`. w := 0.1·x − 3.25·y through the core's
generated WAXPBY (mp_array storage, RNS arithmetic) against MPFR raw bindings (two mpfr_mul and one mpfr_add per
element). MFLOP/s count 3n operations of p bits (seed 001). Minimum of 2–3 runs after a warm-up; n = 10^6 (seed 001)
except where the table says.

${FRESH_DETACHED_NOTE}

${table}`);
