/**
 * DOT in RNS arithmetic (mp_array storage, through the core's generated kernel) against MPFR (gmp-wasm) at the
 * seeds' precisions, n = 10^5, inputs doubles or full-precision. MFLOP/s count 2n operations of p bits (seed 001).
 * Run: npx tsc -p tsconfig.json && node dist/bench/rns-dot.js
 */
import { rnsFormat } from '../src/formats/rns/register.js';
import { range, rowMajor, dot } from '../src/index.js';
import { RNS_STATS, resetRnsStats } from '../src/formats/rns/stats.js';
import type { RnsNumber } from '../src/formats/rns/rns-number.js';
import { PRECISIONS, fmt, makeValues, minTime, mpfr, rnsModuliSet, sizeFor, toRnsArray, type DataKind } from './rns-common.js';
import { markdownTable, writePerformanceSection, writeResults, machineDescription, today } from './report.js';
import { FRESH_DETACHED_NOTE, detachOneBuffer, freshProcessTimes, isFreshChild, reportFreshTimes } from './fresh-process.js';

const N = Number(process.env.RNS_DOT_N ?? 1e5);
// Full-precision inputs round every product (≈ n·p/10 operations each): fewer elements at the top precisions.
const REDUCED: Record<string, number> = { 'full:848': N / 5, 'full:1696': N / 20 };
// RNS times in a fresh process first (nothing detached yet), then everything here after a detach (see fresh-process.ts).
const fresh = isFreshChild ? {} : freshProcessTimes(import.meta.url);
const freshTimes: Record<string, number> = {};
if (!isFreshChild) detachOneBuffer();
const mp = isFreshChild ? null : await mpfr();
const rows: (string | number)[][] = [];
const results: unknown[] = [];
for (const kind of ['double', 'full'] as DataKind[]) {
  for (const p of PRECISIONS) {
    const set = rnsModuliSet(p);
    const f = rnsFormat(p);
    const n = sizeFor(N, p, kind, REDUCED);
    const xv = makeValues(set, n, kind, 1), yv = makeValues(set, n, kind, 2);
    const x = range(rowMajor<1, RnsNumber>({ size: [n], storage: f, arithmetic: f, data: toRnsArray(set, xv) }));
    const y = range(rowMajor<1, RnsNumber>({ size: [n], storage: f, arithmetic: f, data: toRnsArray(set, yv) }));
    const out = range(rowMajor<1, RnsNumber>({ size: [1], storage: f, arithmetic: f }));
    resetRnsStats();
    dot(x, y, { into: out });
    const stats = { ...RNS_STATS };
    const reps = p >= 848 ? 3 : 5;
    const tRns = minTime(() => dot(x, y, { into: out }), reps, 2);
    if (isFreshChild) { freshTimes[`${kind}:${p}`] = tRns; continue; }
    const tFresh = fresh[`${kind}:${p}`]!;
    const { b, make, load } = mp!;
    // MPFR: same values, preallocated, mul + add per element
    const mx = load(xv, p), my = load(yv, p);
    const acc = make(p), t = make(p);
    const tMpfr = minTime(() => {
      b.mpfr_set_d(acc, 0, 0);
      for (let i = 0; i < n; i++) { b.mpfr_mul(t, mx[i]!, my[i]!, 0); b.mpfr_add(acc, acc, t, 0); }
    }, reps, 2);
    const agree = Math.abs(b.mpfr_get_d(acc, 0) - out.get(0).toNumber());
    for (const v of [...mx, ...my, acc, t]) { b.mpfr_clear(v); b.mpfr_t_free(v); }
    const flops = 2 * n;
    const row = { kind, precision: p, moduli: set.size, n, rnsMsFresh: tFresh, rnsMs: tRns, mpfrMs: tMpfr, rnsMflopsFresh: flops / tFresh / 1e3, rnsMflops: flops / tRns / 1e3, mpfrMflops: flops / tMpfr / 1e3, speedupFresh: tMpfr / tFresh, speedup: tMpfr / tRns, roundingsPerOp: stats.roundings / flops, evalRecomputesPerOp: stats.evaluations / flops, agree };
    results.push(row);
    rows.push([kind, p, set.size, n, fmt(tFresh), fmt(tRns), fmt(tMpfr), fmt(row.rnsMflopsFresh), fmt(row.rnsMflops), fmt(row.mpfrMflops), fmt(row.speedupFresh), fmt(row.speedup), fmt(100 * row.roundingsPerOp), fmt(100 * row.evalRecomputesPerOp)]);
    console.log(rows[rows.length - 1]!.join('\t'));
  }
}
if (isFreshChild) {
  reportFreshTimes(freshTimes);
  process.exit(0);
}
writeResults('rns-dot', results);
const dotTable = markdownTable(['inputs', 'bits', 'moduli', 'n', 'RNS ms fresh', 'RNS ms detached', 'MPFR ms', 'RNS MFLOP/s fresh', 'RNS MFLOP/s detached', 'MPFR MFLOP/s', 'RNS/MPFR fresh', 'RNS/MPFR detached', 'roundings %', 'eval recomputes %'], rows);
console.log(dotTable);
writePerformanceSection('rns-dot', `### RNS DOT vs MPFR (gmp-wasm)

${machineDescription()}, ${today()}. \`node dist/bench/rns-dot.js\`. DOT of two mp_array vectors through the core's
generated kernel (RNS storage and arithmetic) against MPFR through gmp-wasm's raw bindings (preallocated \`mpfr_t\`,
\`mpfr_mul\` + \`mpfr_add\`, no conversion in the timed loop). MFLOP/s count 2n operations of p bits (seed 001).
Times are the minimum of 3–5 runs after 2 warm-up runs (the machine is shared). *double*: inputs are doubles in
(−1, 1); *full*: random p-bit significands. n = ${N} except where the table says.

${FRESH_DETACHED_NOTE}

${dotTable}

"roundings %" is the share of operations that had to round the significand (rounding by power-of-two scaling);
"eval recomputes %" the share that recomputed the interval evaluation from the residues.`);
