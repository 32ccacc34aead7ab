/**
 * Double-double GEMV n = 2000 against fp64 GEMV through the same kernels (issue 3): y := A·x with
 * fp64 data computed in fp64; fp64 data computed in DD (y stored in DD); everything stored and computed in DD.
 * Run: npx tsc -p tsconfig.json && node dist/bench/dd-gemv.js
 */
import '../src/formats/dd/register.js';
import { range, rowMajor, colMajor } from '../src/index.js';
import { gemv } from '../kernels/gemv/gemv.js';
import { markdownTable, machineDescription, today, writePerformanceSection, writeResults } from './report.js';
import { race, randomVector, fmt } from './dd-timing.js';

const n = 2000;
const reps = 7;
const a = randomVector(n * n, 3);
const xa = randomVector(n, 4);
const interleave = (h: Float64Array): Float64Array => { const d = new Float64Array(2 * h.length); for (let i = 0; i < h.length; i++) { d[2 * i] = h[i]!; d[2 * i + 1] = h[i]! * 2 ** -60; } return d; };

const Arow = range(rowMajor<2, any>({ size: [n, n], storage: 'f64', data: a }));
const Acol = range(colMajor<2, any>({ size: [n, n], storage: 'f64', data: a }));
const ArowDdAr = range(rowMajor<2, any>({ size: [n, n], storage: 'f64', arithmetic: 'dd', data: a }));
const ArowDd = range(rowMajor<2, any>({ size: [n, n], storage: 'dd', data: interleave(a) }));
const x = range(rowMajor<1, any>({ size: n, storage: 'f64', data: xa }));
const xDd = range(rowMajor<1, any>({ size: n, storage: 'dd', data: interleave(xa) }));
const y = range(rowMajor<1, any>({ size: n, storage: 'f64' }));
const yDd = range(rowMajor<1, any>({ size: n, storage: 'dd' }));

const t = race({
  'fp64, row-major A (dot loop)': () => gemv({ alpha: 1, A: Arow, x, beta: 0, y, trans: 'N' }),
  'fp64, col-major A (axpy loop)': () => gemv({ alpha: 1, A: Acol, x, beta: 0, y, trans: 'N' }),
  'fp64 A, x; DD arithmetic; DD y': () => gemv({ alpha: 1, A: ArowDdAr, x, beta: 0, y: yDd, trans: 'N' }),
  'fp64 A, x; DD arithmetic; dd accumulation': () => gemv({ alpha: 1, A: ArowDdAr, x, beta: 0, y: yDd, trans: 'N' }, { accumulation: 'dd' }),
  'DD A, x, y; DD arithmetic': () => gemv({ alpha: 1, A: ArowDd, x: xDd, beta: 0, y: yDd, trans: 'N' }),
}, reps);

const base = Math.min(t['fp64, row-major A (dot loop)']!, t['fp64, col-major A (axpy loop)']!);
const rows = Object.entries(t).map(([name, ms]) => [name, fmt(ms), fmt((ms * 1e6) / (n * n)), fmt(ms / base)]);
const gflops = (ms: number) => fmt((2 * n * n) / (ms * 1e6));
writeResults('dd-gemv', { n, reps, milliseconds: t });
writePerformanceSection('dd-gemv', `## Double-double GEMV (n = ${n})

${today()}, ${machineDescription()}; median of ${reps} round-robin runs (bench/dd-gemv.ts), y := A·x.

${markdownTable(['variant', 'ms', 'ns / element of A', '× fastest fp64'], rows)}

DD GEMV on fp64 data costs ${fmt(t['fp64 A, x; DD arithmetic; DD y']! / base, 2)}× the fp64 GEMV (full DD data:
${fmt(t['DD A, x, y; DD arithmetic']! / base, 2)}×). The seed paper's GPU DD GEMV runs at about 2× the fp64 time
because there it is memory-bound (16 bytes per DD element, the ~20 DD flops hidden behind memory). Here both kernels
are compute- and load-bound scalar JavaScript: the fp64 GEMV runs at ${gflops(base)} GFlop/s (one core, generated
strided loop), far below memory bandwidth, and a DD multiply-add adds binary64 operations to the same loads and
index work: 28 per element on fp64 data (TwoProd by Veltkamp splitting — no FMA — then \`ddTwoProdAccumulate\`: TwoSum,
two roundings, FastTwoSum), ~35 on DD data (\`ddMulAccumulate\`, with the cross terms and a final TwoSum). The ratio
therefore reflects the extra arithmetic over the per-element overhead both share, not the bytes moved (DD data moves
2× the bytes).
`);
console.log(markdownTable(['variant', 'ms', 'ns / element of A', '× fastest fp64'], rows));
