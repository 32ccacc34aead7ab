/**
 * The CPU at memory speed (issue 20): modprec's CPU kernels on the generated JavaScript (`backend: 'js'`) and on
 * WebAssembly SIMD (`backend: 'wasm'`), against peers measured in the same process and rounds:
 * - the C STREAM dot (/work/shared/tools/stream.c, or $STREAM_C), compiled here with gcc -O3 -march=native
 *   -fopenmp and run with OMP_NUM_THREADS=1 once per round (a child process, n = 2^24);
 * - @stdlib/blas-base-ddot and @stdlib/blas-base-dtrsv (pure JavaScript; dtrsv where installed);
 * - the `double-double` package's DOT on fp64 data (TwoProduct + ddAddDd, two chains: its best use, bench/dd-dot.ts).
 * Every case runs once per round, rounds interleaved, median over rounds. Results are checked before timing
 * (each WebAssembly result within the kernel's bound of the JavaScript one's value, ±2 bounds).
 *
 * Writes bench/results/wasm-cpu.json and the `wasm-cpu` section of docs/performance.md (under 3 minutes with the
 * default 5 rounds on a 2-core VM).
 * Run: npx tsc -p tsconfig.json && node dist/bench/wasm-cpu.js [--rounds=5] [--lookahead=512,2048] (STREAM_BIN=<binary>: a
 * STREAM built elsewhere; --lookahead: the candidate lookahead rows' distances in bytes, 0 for none)
 * `--quick`: small sizes (n = 2^16, 256², Laplacian 16³), no STREAM, nothing written — a check that every case runs
 * (the labels keep the full sizes). `--only=PREFIX`: only the cases whose group starts with PREFIX (`--only=dot20`: the
 * DD DOT 2^20 rows with their ratios, the lazy form's included), no STREAM, printed, nothing written.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import ddot from '@stdlib/blas-base-ddot';
import { twoProduct, ddAddDd } from 'double-double';
import { wasmFusedFmaAvailable } from '../src/backends/wasm/wasm-fused-fma.js';
import { setWasmKernelForms, type WasmKernelForms } from '../src/backends/wasm/wasm-kernel-forms.js';
import {
  asum, asumBound, axpy, colMajor, scal, dot, nrm2, nrm2Bound, wasmArena, dotBound, ellOperand, ellSpmv, ellSpmvBound, ellWithStorage, formats, gemv, gemvBound, laplacianEll, range, rowMajor, trsv, trsvBound, vector, waxpby, wasmSimdAvailable, type Range,
} from '../src/index.js';
import '../src/formats/dd/register.js';
import { fitScales, scaledReducedColMajor, scaledReducedRowMajor } from '../accessors/scaled-reduced.js';
import { seededRandom } from '../src/sparse/seeded-random.js';
import { compileStream, streamDot } from './stream-dot.js';
import { machineDescription, markdownTable, today, writePerformanceSection, writeResults } from './report.js';

const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 5);
const quick = process.argv.includes('--quick');
const loadAtStart = loadavg()[0]!;

/** stdlib's dtrsv where installed (a dev dependency; the TRSV goal's peer). */
type Dtrsv = (order: string, uplo: string, trans: string, diag: string, n: number, A: Float64Array, lda: number, x: Float64Array, strideX: number) => Float64Array;
const dtrsv: Dtrsv | null = (() => {
  try { return createRequire(import.meta.url)('@stdlib/blas-base-dtrsv') as Dtrsv; } catch { return null; }
})();
const N = quick ? 2 ** 16 : 2 ** 24;
const M = quick ? 256 : 4096;

function data(n: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: n }, () => random.nextDouble() - 0.5);
}

interface Case { name: string; group: string; bytes: number; run: () => unknown }

/** `run` under the inner-loop forms `change` (src/backends/wasm/wasm-kernel-forms.ts: earlier or candidate ones), restored after. */
const withForms = (change: Partial<WasmKernelForms>, run: () => unknown) => (): unknown => {
  const previous = setWasmKernelForms(change);
  try { return run(); } finally { setWasmKernelForms(previous); }
};

const xs = data(N, 1), ys = data(N, 2);
// In-place rows: the same operands again with their storage in one wasmArena (the WebAssembly kernels read it in
// place, no staging copy): DOT 2·N·(8 + 4 + 2 + 2 + 1) bytes and three scaled i8 pairs (2·N·3), GEMV 2·M²·(8 + 4), ELL 128³ f64 and f32 (values and
// column indices), plus alignment.
const ELL_ROWS = quick ? 16 ** 3 : 128 ** 3;
// The staging area below it must hold what the staged calls copy: ELL SpMV stages x as doubles (8 bytes a column),
// the double-double ELL SpMV x and its row results (about 16 bytes a row; 34 MB at 128³ on the H100 host's run).
const arena = wasmArena(2 * N * 20 + 2 * M * M * 12 + ELL_ROWS * (7 * (8 + 4 + 4 + 4) + 8) + 2 ** 20, { staging: ELL_ROWS * 24 + 2 ** 22 });
const vectorOf = (values: Float64Array, storage: (typeof formats)[keyof typeof formats]): Range<1, any> => vector(values, { storage, arithmetic: formats.f64 });
const cases: Case[] = [];
/** Bytes ahead of the candidate lookahead loads of the 16-bit DOT (`--lookahead=512,2048`, the default). */
const LOOKAHEADS = (process.argv.find((a) => a.startsWith('--lookahead='))?.slice(12) ?? '512,2048').split(',').map(Number).filter((b) => b > 0);
const DOT_STORAGES = [['f64', formats.f64, 8], ['f32', formats.f32, 4], ['bf16', formats.bf16, 2], ['f16', formats.f16, 2], ['i8', formats.i8, 1]] as const;
for (const [name, storage, bytes] of DOT_STORAGES) {
  // i8 holds integers: scale the values into its range.
  const scale = name === 'i8' ? 200 : 1;
  const x = vectorOf(xs.map((v) => v * scale), storage), y = vectorOf(ys.map((v) => v * scale), storage);
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `DOT ${name} storage, f64 arithmetic, n = 2^24 (${backend})`, group: `dot-${name}-${backend}`, bytes: 2 * N * bytes, run: () => dot(x, y, { backend }) });
  const [xa, ya] = [x, y].map((v) => inPlace(v));
  cases.push({ name: `DOT ${name} storage, f64 arithmetic, n = 2^24 (wasm, in place)`, group: `dot-${name}-wasm-inplace`, bytes: 2 * N * bytes, run: () => dot(xa!, ya!, { backend: 'wasm' }) });
  if (name === 'bf16' || name === 'f16') {
    cases.push({ name: `DOT ${name} storage, f64 arithmetic, n = 2^24 (wasm, in place, earlier unchecked chunk)`, group: `dot-${name}-wasm-inplace-earlier`, bytes: 2 * N * bytes, run: withForms({ halfDotChecked: false }, () => dot(xa!, ya!, { backend: 'wasm' })) });
    // The checked chunk before its lean form (wasmKernelForms().halfDotLean): the same bits, checked before timing.
    const before = withForms({ halfDotLean: false }, () => dot(xa!, ya!, { backend: 'wasm' }));
    if (!Object.is(before(), dot(xa!, ya!, { backend: 'wasm' }))) throw new Error(`DOT ${name}: the earlier checked chunk differs from the lean one`);
    cases.push({ name: `DOT ${name} storage, f64 arithmetic, n = 2^24 (wasm, in place, earlier checked chunk)`, group: `dot-${name}-wasm-inplace-checked-earlier`, bytes: 2 * N * bytes, run: before });
  }
  // Candidate (session 19): the 16-bit checked chunk's products widened through memory (halfDotPromote); the same
  // bits, checked before timing. (The fp32 pair chunk's forms timed in session 19 were no faster than the general
  // chunk on the Xeon host or the AMD VM, and went.)
  const candidates: [string, Partial<WasmKernelForms>][] = name === 'bf16' || name === 'f16'
    ? [['memory', { halfDotPromote: 'memory' }], ['shuffle', { halfDotPromote: 'shuffle' }]] : [];
  for (const [label, change] of candidates) {
    const run = withForms(change, () => dot(xa!, ya!, { backend: 'wasm' }));
    if (!Object.is(run(), dot(xa!, ya!, { backend: 'wasm' }))) throw new Error(`DOT ${name}: form ${label} differs`);
    cases.push({ name: `DOT ${name} storage, f64 arithmetic, n = 2^24 (wasm, in place, halfDotPromote ${label})`, group: `dot-${name}-wasm-inplace-form-${label}`, bytes: 2 * N * bytes, run });
  }
  // Candidate: lookahead loads (wasmKernelForms().dotLookahead, off by default; not in the i8 pair chunk), same bits.
  for (const ahead of name === 'i8' ? [] : LOOKAHEADS) {
    const run = withForms({ dotLookahead: ahead }, () => dot(xa!, ya!, { backend: 'wasm' }));
    if (!Object.is(run(), dot(xa!, ya!, { backend: 'wasm' }))) throw new Error(`DOT ${name}: lookahead ${ahead} differs`);
    cases.push({ name: `DOT ${name} storage, f64 arithmetic, n = 2^24 (wasm, in place, lookahead ${ahead} B)`, group: `dot-${name}-wasm-inplace-ahead-${ahead}`, bytes: 2 * N * bytes, run });
  }
  if (!Object.is(dot(xa!, ya!, { backend: 'wasm' }), dot(x, y, { backend: 'wasm' }))) throw new Error(`DOT ${name}: in place and staged differ (they take the same order)`);
  if (name === 'f64') cases.push({ name: `AXPY f64, n = 2^24 (wasm, in place)`, group: 'axpy-wasm-inplace', bytes: 24 * N, run: () => axpy(1e-9, xa!, ya!, { backend: 'wasm' }) });
  // Results agree within the bound (checked once, before timing).
  const b = dotBound(x, y);
  if (!(Math.abs(dot(x, y, { backend: 'wasm' }) - dot(x, y, { backend: 'js' })) <= 2 * b)) throw new Error(`DOT ${name}: backends disagree beyond the bound`);
}
// i8 with one scale per operand, in place (issue 20's "int8 scaled"; the same integers as the i8 rows): powers of two,
// binary32 scales and 53-bit scales — kernels/dot/dot-narrow-wasm.ts's `int8PairForm` takes the integer sums, the
// i16 products, the general chunk — and the general chunk for the first two (int8PairForms off: the form before).
const SCALED_I8 = [['pow2', 'scales 2^-7, 2^-5', 2 ** -7, 2 ** -5], ['f32', 'binary32 scales', Math.fround(0.37 / 127), Math.fround(1.3 / 127)], ['53bit', '53-bit scales', 0.37 / 127, 1.3 / 127]] as const;
for (const [key, label, sx, sy] of SCALED_I8) {
  const make = (values: Float64Array, scale: number): Range<1, any> => {
    const r = range(scaledReducedRowMajor<1>({ size: [N], storage: formats.i8, arithmetic: formats.f64, scaleMask: [false], memory: arena }));
    r.accessor.writeScale!(0, scale);
    for (let i = 0; i < N; i++) r.set(i, Math.round(values[i]! * 200) * scale);
    return r;
  };
  const x = make(xs, sx), y = make(ys, sy);
  const run = (): unknown => dot(x, y, { backend: 'wasm' });
  if (!(Math.abs((run() as number) - dot(x, y, { backend: 'js' })) <= 2 * dotBound(x, y))) throw new Error(`DOT i8 ${label}: backends disagree beyond the bound`);
  cases.push({ name: `DOT i8 storage, ${label}, f64 arithmetic, n = 2^24 (wasm, in place)`, group: `dot-i8s-${key}-wasm-inplace`, bytes: 2 * N, run });
  if (key === '53bit') continue;
  const general = withForms({ int8PairForms: false }, run);
  if (!Object.is(general(), run())) throw new Error(`DOT i8 ${label}: the general chunk differs from int8PairForm's`);
  cases.push({ name: `DOT i8 storage, ${label}, f64 arithmetic, n = 2^24 (wasm, in place, general chunk: int8PairForms off)`, group: `dot-i8s-${key}-wasm-inplace-general`, bytes: 2 * N, run: general });
}
cases.push({ name: 'DOT f64, @stdlib/blas-base-ddot', group: 'dot-stdlib', bytes: 16 * N, run: () => ddot(N, xs, 1, ys, 1) });
// fp32 arithmetic on fp32 storage: WebAssembly's f32x4 lanes against the JavaScript f32 kernel (Math.fround per
// operation), the same-run peer; results checked within dotBound (f32) of each other.
{
  const x = vector(xs, { storage: formats.f32, arithmetic: formats.f32 }), y = vector(ys, { storage: formats.f32, arithmetic: formats.f32 });
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `DOT f32 storage, f32 arithmetic, n = 2^24 (${backend})`, group: `dot-f32-f32-${backend}`, bytes: 8 * N, run: () => dot(x, y, { arithmetic: formats.f32, backend }) });
  const b = dotBound(x, y, { arithmetic: formats.f32 });
  if (!(Math.abs(dot(x, y, { arithmetic: formats.f32, backend: 'wasm' }) - dot(x, y, { arithmetic: formats.f32, backend: 'js' })) <= 2 * b)) throw new Error('DOT f32 arithmetic: backends disagree beyond the bound');
}
{
  const x = vectorOf(xs, formats.f64), y = vectorOf(ys, formats.f64);
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `AXPY f64, n = 2^24 (${backend})`, group: `axpy-${backend}`, bytes: 24 * N, run: () => axpy(1e-9, x, y, { backend }) });
}
const a = data(M * M, 3), xv = data(M, 4);
for (const layout of ['col', 'row'] as const) {
  const A = range((layout === 'col' ? colMajor : rowMajor)<2>({ size: [M, M], storage: formats.f64, arithmetic: formats.f64, data: a.slice() }));
  const x = vectorOf(xv, formats.f64), y = vector(M);
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `GEMV N f64 ${M}², ${layout}-major (${backend})`, group: `gemv-${layout}-${backend}`, bytes: 8 * M * M, run: () => gemv({ alpha: 1, A, x, beta: 0, y }, { backend }) });
  const Aa = inPlaceMatrix(A, layout);
  cases.push({ name: `GEMV N f64 ${M}², ${layout}-major (wasm, in place)`, group: `gemv-${layout}-wasm-inplace`, bytes: 8 * M * M, run: () => gemv({ alpha: 1, A: Aa, x, beta: 0, y }, { backend: 'wasm' }) });
  if (layout === 'row') {
    // The earlier form: two rows sharing each load of x (wasmKernelForms().gemvRowGroup), checked bit for bit first.
    const twoRows = withForms({ gemvRowGroup: 2 }, () => gemv({ alpha: 1, A: Aa, x, beta: 0, y }, { backend: 'wasm' }));
    gemv({ alpha: 1, A: Aa, x, beta: 0, y }, { backend: 'wasm' });
    const fourRows = Float64Array.from({ length: M }, (_, i) => y.get(i));
    twoRows();
    if (!fourRows.every((v, i) => Object.is(v, y.get(i)))) throw new Error('GEMV row-major: two rows a group changed the bits');
    cases.push({ name: `GEMV N f64 ${M}², row-major (wasm, in place, 2 rows a group)`, group: 'gemv-row-wasm-inplace-g2', bytes: 8 * M * M, run: twoRows });
  }
  const Af32 = range((layout === 'col' ? colMajor : rowMajor)<2>({ size: [M, M], storage: formats.f32, arithmetic: formats.f64 }));
  for (let i = 0; i < M; i++) for (let j = 0; j < M; j++) Af32.set(i, j, a[i * M + j]!);
  cases.push({ name: `GEMV N f32 storage ${M}², ${layout}-major (wasm)`, group: `gemv-f32-${layout}-wasm`, bytes: 4 * M * M, run: () => gemv({ alpha: 1, A: Af32, x, beta: 0, y }, { backend: 'wasm' }) });
  const Af32a = inPlaceMatrix(Af32, layout);
  cases.push({ name: `GEMV N f32 storage ${M}², ${layout}-major (wasm, in place)`, group: `gemv-f32-${layout}-wasm-inplace`, bytes: 4 * M * M, run: () => gemv({ alpha: 1, A: Af32a, x, beta: 0, y }, { backend: 'wasm' }) });
  // TRSV: a well-conditioned lower triangle (unit-ish diagonal); x reset before each solve is not timed separately.
  const L = range((layout === 'col' ? colMajor : rowMajor)<2>({ size: [M, M], storage: formats.f64, arithmetic: formats.f64 }));
  for (let i = 0; i < M; i++) for (let j = 0; j <= i; j++) L.set(i, j, i === j ? 2 + a[i]! : a[i * M + j]! / M);
  const b = vectorOf(xv, formats.f64);
  cases.push({ name: `TRSV L f64 ${M}, ${layout}-major (js)`, group: `trsv-${layout}`, bytes: 4 * M * M, run: () => { (b.accessor.data as Float64Array).set(xv); trsv({ A: L, x: b, uplo: 'L' }, { backend: 'js' }); } });
  {
    const [u, w] = [vectorOf(xv, formats.f64), vectorOf(xv, formats.f64)];
    const bound = trsvBound({ A: L, x: u, uplo: 'L' });
    trsv({ A: L, x: u, uplo: 'L' }, { backend: 'wasm' });
    trsv({ A: L, x: w, uplo: 'L' }, { backend: 'js' });
    for (let i = 0; i < M; i++) if (!(Math.abs(u.get(i) - w.get(i)) <= 2 * bound[i]!)) throw new Error(`TRSV ${layout}: backends disagree beyond the bound`);
  }
  cases.push({ name: `TRSV L f64 ${M}, ${layout}-major (wasm)`, group: `trsv-${layout}-wasm`, bytes: 4 * M * M, run: () => { (b.accessor.data as Float64Array).set(xv); trsv({ A: L, x: b, uplo: 'L' }, { backend: 'wasm' }); } });
  // TRSV in double-double arithmetic (x in dd storage): the JavaScript's bits on both (test/wasm/wasm-dd-trsv.test.ts).
  const bdd = vectorOf(xv, formats.dd), bddInit = (bdd.accessor.data as Float64Array).slice();
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `TRSV L dd arithmetic ${M}, ${layout}-major (${backend})`, group: `trsv-dd-${layout}-${backend}`, bytes: 4 * M * M, run: () => { (bdd.accessor.data as Float64Array).set(bddInit); trsv({ A: L, x: bdd, uplo: 'L' }, { arithmetic: formats.dd, backend }); } });
  // TRSV with x in fp16 storage and in scaled int16 (one scale), fp64 arithmetic: the JavaScript's bits on both
  // (each xᵢ stored by the JavaScript's store and read back, test/wasm/wasm-trsv-stored-x.test.ts).
  for (const [label, make] of [
    ['x f16', (): Range<1, any> => vectorOf(xv, formats.f16)],
    ['x i16 scaled', (): Range<1, any> => range(scaledReducedRowMajor<1>({ size: [M], storage: formats.i16, arithmetic: formats.f64, scaleMask: [false] }))],
  ] as const) {
    const bx = make();
    if (bx.accessor.scale) { bx.accessor.writeScale(0, 2 / 32000); for (let i = 0; i < M; i++) bx.set(i, xv[i]!); }
    const init = (bx.accessor.data as Int16Array | Uint16Array).slice(), group = label === 'x f16' ? 'xf16' : 'xi16s';
    for (const backend of ['js', 'wasm'] as const) cases.push({ name: `TRSV L f64 ${M}, ${layout}-major, ${label} (${backend})`, group: `trsv-${group}-${layout}-${backend}`, bytes: 4 * M * M, run: () => { (bx.accessor.data as Int16Array | Uint16Array).set(init); trsv({ A: L, x: bx, uplo: 'L' }, { backend }); } });
    // The same x in double-double arithmetic (test/wasm/wasm-dd-trsv-stored-x.test.ts): the JavaScript's bits on both.
    for (const backend of ['js', 'wasm'] as const) cases.push({ name: `TRSV L dd arithmetic ${M}, ${layout}-major, ${label} (${backend})`, group: `trsv-dd-${group}-${layout}-${backend}`, bytes: 4 * M * M, run: () => { (bx.accessor.data as Int16Array | Uint16Array).set(init); trsv({ A: L, x: bx, uplo: 'L' }, { arithmetic: formats.dd, backend }); } });
  }
  // TRSV in fp64 arithmetic with the dd accumulation (x fp64): the JavaScript's bits on both (test/wasm/wasm-dd-sum-trsv.test.ts).
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `TRSV L f64 ${M}, ${layout}-major, dd accumulation (${backend})`, group: `trsv-ddacc-${layout}-${backend}`, bytes: 4 * M * M, run: () => { (b.accessor.data as Float64Array).set(xv); trsv({ A: L, x: b, uplo: 'L' }, { accumulation: 'dd', backend }); } });
  if (dtrsv) {
    const raw = L.accessor.data as Float64Array, xd = new Float64Array(M);
    cases.push({ name: `TRSV L f64 ${M}, ${layout}-major, @stdlib/blas-base-dtrsv`, group: `trsv-${layout}-stdlib`, bytes: 4 * M * M, run: () => { xd.set(xv); dtrsv(layout === 'col' ? 'column-major' : 'row-major', 'lower', 'no-transpose', 'non-unit', M, raw, M, xd, 1); } });
  }
}

// DD DOT on fp64 data, n = 2^20: WebAssembly double-double against the fp64 DOT of the same vectors and the
// double-double package (two chains, its best use).
const DD_N = quick ? 2 ** 12 : 2 ** 20;
// The default is the guarded 'bits' split (session 18); 'veltkamp' is the form it replaced.
const DD_SPLITS = ['veltkamp', 'veltkamp-pinned'] as const;
{
  const dx = xs.subarray(0, DD_N), dy = ys.subarray(0, DD_N);
  const x = vectorOf(dx, formats.f64), y = vectorOf(dy, formats.f64);
  cases.push({ name: 'DOT f64, n = 2^20 (wasm)', group: 'dot20-f64-wasm', bytes: 16 * DD_N, run: () => dot(x, y, { backend: 'wasm' }) });
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `DOT dd arithmetic on f64 data, n = 2^20 (${backend})`, group: `dot20-dd-${backend}`, bytes: 16 * DD_N, run: () => dot(x, y, { arithmetic: formats.dd, backend }) });
  // The earlier splittings of Dekker's product (wasmKernelForms().ddDotSplit; unused where the fused multiply-add
  // is): the same bits as the default form, checked here before timing.
  for (const split of DD_SPLITS) {
    const run = withForms({ ddDotSplit: split }, () => dot(x, y, { arithmetic: formats.dd, backend: 'wasm' }));
    if (!Object.is(run(), dot(x, y, { arithmetic: formats.dd, backend: 'wasm' }))) throw new Error(`DD DOT: the ${split} split differs from the default form`);
    cases.push({ name: `DOT dd arithmetic on f64 data, n = 2^20 (wasm, ${split} split)`, group: `dot20-dd-wasm-${split}`, bytes: 16 * DD_N, run });
  }
  // Candidate: the lazy form (wasmKernelForms().ddDotLazy, off by default): Dot2's step per lane, folded every 64
  // elements — another order within the same bound, checked here against the bound of the dd accumulation (tighter).
  // With 'bits' it splits every product by bits, no guard (the same kernel as the other where the multiply-add is fused).
  for (const split of ['veltkamp', 'bits'] as const) {
    const lazy = withForms({ ddDotLazy: true, ddDotSplit: split }, () => dot(x, y, { arithmetic: formats.dd, backend: 'wasm' }));
    if (!(Math.abs((lazy() as number) - dot(x, y, { arithmetic: formats.dd, backend: 'js' })) <= 2 * dotBound(x, y, { accumulation: 'dd' }))) throw new Error(`DD DOT: the lazy form (${split}) disagrees beyond the bound`);
    cases.push({ name: `DOT dd arithmetic on f64 data, n = 2^20 (wasm, lazy form, ${split} split)`, group: `dot20-dd-wasm-lazy-${split}`, bytes: 16 * DD_N, run: lazy });
  }
  const packageDot = (): number => {
    let s = [0, 0], t = [0, 0];
    for (let i = 0; i < DD_N; i += 2) { s = ddAddDd(s, twoProduct(dx[i]!, dy[i]!)); t = ddAddDd(t, twoProduct(dx[i + 1]!, dy[i + 1]!)); }
    const r = ddAddDd(s, t);
    return r[1]! + r[0]!;
  };
  cases.push({ name: 'DOT on f64 data, double-double package (two chains), n = 2^20', group: 'dot20-dd-package', bytes: 16 * DD_N, run: packageDot });
  const b = dotBound(x, y, { arithmetic: formats.dd });
  const w = dot(x, y, { arithmetic: formats.dd, backend: 'wasm' }), j = dot(x, y, { arithmetic: formats.dd, backend: 'js' });
  if (!(Math.abs(w - j) <= 2 * b + 2 * Number.EPSILON * Math.abs(j)) || !(Math.abs(packageDot() - j) <= 2 * b + 2 * Number.EPSILON * Math.abs(j))) throw new Error('DD DOT: results disagree beyond the bound');
}

// ASUM and NRM2 in double-double arithmetic, n = 2^20 (session 18: WebAssembly's eight dd lanes against the JavaScript
// chains; NRM2's maximum pass runs in JavaScript for both). Checked within the bounds before timing.
{
  const x = vectorOf(xs.subarray(0, DD_N), formats.f64);
  for (const backend of ['js', 'wasm'] as const) {
    cases.push({ name: `ASUM dd arithmetic on f64 data, n = 2^20 (${backend})`, group: `asum20-dd-${backend}`, bytes: 8 * DD_N, run: () => asum(x, { arithmetic: formats.dd, backend }) });
    cases.push({ name: `NRM2 dd arithmetic on f64 data, n = 2^20 (${backend})`, group: `nrm220-dd-${backend}`, bytes: 8 * DD_N, run: () => nrm2(x, { arithmetic: formats.dd, backend }) });
  }
  const [aw, aj] = [asum(x, { arithmetic: formats.dd, backend: 'wasm' }), asum(x, { arithmetic: formats.dd, backend: 'js' })];
  const [nw, nj] = [nrm2(x, { arithmetic: formats.dd, backend: 'wasm' }), nrm2(x, { arithmetic: formats.dd, backend: 'js' })];
  if (!(Math.abs(aw - aj) <= 2 * asumBound(x, { arithmetic: formats.dd })) || !(Math.abs(nw - nj) <= 2 * nrm2Bound(x, { arithmetic: formats.dd }))) throw new Error('DD ASUM/NRM2: backends disagree beyond the bound');
}

// GEMV N in double-double (fp64 data, dd arithmetic), M²: WebAssembly against the JavaScript dd kernel in the
// same rounds (column-major: each row's sum in lanes, the JavaScript's order; row-major: a DD DOT per row).
{
  const x = vectorOf(xv, formats.f64);
  for (const layout of ['col', 'row'] as const) {
    const A = range((layout === 'col' ? colMajor : rowMajor)<2>({ size: [M, M], storage: formats.f64, arithmetic: formats.f64, data: a.slice() }));
    const y = vector(M), y2 = vector(M);
    for (const backend of ['js', 'wasm'] as const) cases.push({ name: `GEMV N dd arithmetic on f64 data ${M}², ${layout}-major (${backend})`, group: `gemv-dd-${layout}-${backend}`, bytes: 8 * M * M, run: () => gemv({ alpha: 1, A, x, beta: 0, y }, { arithmetic: formats.dd, backend }) });
    const bound = gemvBound({ alpha: 1, A, x, beta: 0, y }, { arithmetic: formats.dd });
    gemv({ alpha: 1, A, x, beta: 0, y }, { arithmetic: formats.dd, backend: 'wasm' });
    gemv({ alpha: 1, A, x, beta: 0, y: y2 }, { arithmetic: formats.dd, backend: 'js' });
    for (let i = 0; i < M; i++) if (!(Math.abs(y.get(i) - y2.get(i)) <= 2 * bound[i]! + 2 * Number.EPSILON * Math.abs(y2.get(i)))) throw new Error(`GEMV dd ${layout}: backends disagree beyond the bound`);
  }
}

// ELL SpMV on the 3-D Laplacian 128³ (7 slots): bytes = values + column indices + x read + y written, once each.
{
  const L = quick ? laplacianEll([16, 16, 16]) : laplacianEll([128, 128, 128]);
  const ellBytes = (valueBytes: number): number => L.stride * L.width * (valueBytes + 4) + 16 * L.rows;
  const x = vectorOf(data(L.cols, 5), formats.f64), y = vector(L.rows);
  const xa = inPlace(x);
  for (const [name, storage, bytes] of [['f64', formats.f64, 8], ['f32', formats.f32, 4]] as const) {
    const A = ellWithStorage(L, { storage });
    for (const backend of ['js', 'wasm'] as const) cases.push({ name: `ELL SpMV ${name} values, Laplacian 128³ (${backend})`, group: `ell-${name}-${backend}`, bytes: ellBytes(bytes), run: () => ellSpmv({ alpha: 1, A, x, beta: 0, y }, { backend }) });
    const Aa = ellWithStorage(L, { storage, memory: arena });
    cases.push({ name: `ELL SpMV ${name} values, Laplacian 128³ (wasm, in place)`, group: `ell-${name}-wasm-inplace`, bytes: ellBytes(bytes), run: () => ellSpmv({ alpha: 1, A: Aa, x: xa, beta: 0, y }, { backend: 'wasm' }) });
    cases.push({ name: `ELL SpMV ${name} values, Laplacian 128³ (wasm, in place, earlier 4-row loop)`, group: `ell-${name}-wasm-inplace-earlier`, bytes: ellBytes(bytes), run: withForms({ ellWide: false }, () => ellSpmv({ alpha: 1, A: Aa, x: xa, beta: 0, y }, { backend: 'wasm' })) });
    // Candidate: the 7 slots written out one by one (wasmKernelForms().ellSlotsUnrolled), checked bit for bit first.
    const unrolled = withForms({ ellSlotsUnrolled: true }, () => ellSpmv({ alpha: 1, A: Aa, x: xa, beta: 0, y }, { backend: 'wasm' }));
    {
      const y1 = vector(L.rows);
      ellSpmv({ alpha: 1, A: Aa, x: xa, beta: 0, y: y1 }, { backend: 'wasm' });
      unrolled();
      for (let i = 0; i < L.rows; i++) if (!Object.is(y.get(i), y1.get(i))) throw new Error(`ELL ${name}: the unrolled slots differ from the slot loop`);
    }
    cases.push({ name: `ELL SpMV ${name} values, Laplacian 128³ (wasm, in place, slots unrolled)`, group: `ell-${name}-wasm-inplace-unrolled`, bytes: ellBytes(bytes), run: unrolled });
    const y2 = vector(L.rows);
    ellSpmv({ alpha: 1, A, x, beta: 0, y }, { backend: 'wasm' });
    ellSpmv({ alpha: 1, A, x, beta: 0, y: y2 }, { backend: 'js' });
    const bound = ellSpmvBound({ alpha: 1, A, x, beta: 0, y });
    for (let i = 0; i < L.rows; i++) if (!(Math.abs(y.get(i) - y2.get(i)) <= 2 * bound[i]!)) throw new Error(`ELL ${name}: backends disagree beyond the bound`);
  }
  // Double-double arithmetic on f64 values: the same operations in the same order on both backends (the same bits).
  const A = ellWithStorage(L, { storage: formats.f64 });
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `ELL SpMV dd arithmetic, f64 values, Laplacian 128³ (${backend})`, group: `ell-dd-${backend}`, bytes: ellBytes(8), run: () => ellSpmv({ alpha: 1, A, x, beta: 0, y }, { arithmetic: formats.dd, backend }) });
  const y2 = vector(L.rows);
  ellSpmv({ alpha: 1, A, x, beta: 0, y }, { arithmetic: formats.dd, backend: 'wasm' });
  ellSpmv({ alpha: 1, A, x, beta: 0, y: y2 }, { arithmetic: formats.dd, backend: 'js' });
  for (let i = 0; i < L.rows; i++) if (!Object.is(y.get(i), y2.get(i))) throw new Error('ELL dd: backends disagree (they take the same operations in the same order)');
}

// Double-double arithmetic over int16 storage with one scale (session 19): WebAssembly reads each element as the pair
// (q, 0)·(s, 0), as the JavaScript does (src/backends/wasm/wasm-dd-read.ts). DOT and ASUM n = 2^20, GEMV N M²
// column-major, ELL SpMV on the Laplacian 128³ with one scale per row; checked (bounds; GEMV by columns and ELL: bits).
{
  const scaledI16 = (values: Float64Array, size: readonly number[], mask: readonly boolean[], layout: 'row' | 'col' = 'row'): Range<any, any> => {
    const r = range((layout === 'row' ? scaledReducedRowMajor : scaledReducedColMajor)<any, any>({ size: size as never, storage: formats.i16, arithmetic: formats.f64, scaleMask: mask }));
    fitScales(r.accessor, (...idx: number[]) => values[idx.length === 1 ? idx[0]! : layout === 'col' ? idx[0]! + idx[1]! * size[0]! : idx[0]! * size[1]! + idx[1]!]!);
    return r;
  };
  const x = scaledI16(xs.subarray(0, DD_N), [DD_N], [false]) as Range<1, any>, y = vectorOf(ys.subarray(0, DD_N), formats.f64);
  for (const backend of ['js', 'wasm'] as const) {
    cases.push({ name: `DOT dd arithmetic, x i16 scaled, n = 2^20 (${backend})`, group: `dot20-dd-i16s-${backend}`, bytes: 10 * DD_N, run: () => dot(x, y, { arithmetic: formats.dd, backend }) });
    cases.push({ name: `ASUM dd arithmetic, x i16 scaled, n = 2^20 (${backend})`, group: `asum20-dd-i16s-${backend}`, bytes: 2 * DD_N, run: () => asum(x, { arithmetic: formats.dd, backend }) });
  }
  const [dw, dj] = [dot(x, y, { arithmetic: formats.dd, backend: 'wasm' }), dot(x, y, { arithmetic: formats.dd, backend: 'js' })];
  const [aw, aj] = [asum(x, { arithmetic: formats.dd, backend: 'wasm' }), asum(x, { arithmetic: formats.dd, backend: 'js' })];
  if (!(Math.abs(dw - dj) <= 2 * dotBound(x, y, { arithmetic: formats.dd }) + 2 * Number.EPSILON * Math.abs(dj)) || !(Math.abs(aw - aj) <= 2 * asumBound(x, { arithmetic: formats.dd }) + 2 * Number.EPSILON * aj)) throw new Error('DD DOT/ASUM over scaled i16: backends disagree beyond the bound');
  const A = scaledI16(a, [M, M], [false, false], 'col') as Range<2, any>, xm = vectorOf(xv, formats.f64);
  const Adcol = range(colMajor<2>({ size: [M, M], storage: formats.f64, arithmetic: formats.f64 }));
  (Adcol.accessor.data as Float64Array).set(a.subarray(0, M * M));
  const ym = vector(M), ym2 = vector(M);
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `GEMV N dd arithmetic, A i16 scaled ${M}², col-major (${backend})`, group: `gemv-dd-i16s-col-${backend}`, bytes: 2 * M * M, run: () => gemv({ alpha: 1, A, x: xm, beta: 0, y: ym }, { arithmetic: formats.dd, backend }) });
  gemv({ alpha: 1, A, x: xm, beta: 0, y: ym }, { arithmetic: formats.dd, backend: 'wasm' });
  gemv({ alpha: 1, A, x: xm, beta: 0, y: ym2 }, { arithmetic: formats.dd, backend: 'js' });
  for (let i = 0; i < M; i++) if (!Object.is(ym.get(i), ym2.get(i))) throw new Error('GEMV dd over scaled i16, col-major: backends disagree (the same operations in the same order)');
  const L = quick ? laplacianEll([16, 16, 16]) : laplacianEll([128, 128, 128]);
  const V = scaledI16(data(L.stride * L.width, 6), [L.stride, L.width], [true, false], 'col') as Range<2, any>;
  const E = ellOperand(L, V), xe = vectorOf(data(L.cols, 5), formats.f64), ye = vector(L.rows), ye2 = vector(L.rows);
  for (const backend of ['js', 'wasm'] as const) cases.push({ name: `ELL SpMV dd arithmetic, i16 values scaled per row, Laplacian 128³ (${backend})`, group: `ell-dd-i16s-${backend}`, bytes: L.stride * L.width * 6 + 16 * L.rows, run: () => ellSpmv({ alpha: 1, A: E, x: xe, beta: 0, y: ye }, { arithmetic: formats.dd, backend }) });
  ellSpmv({ alpha: 1, A: E, x: xe, beta: 0, y: ye }, { arithmetic: formats.dd, backend: 'wasm' });
  ellSpmv({ alpha: 1, A: E, x: xe, beta: 0, y: ye2 }, { arithmetic: formats.dd, backend: 'js' });
  for (let i = 0; i < L.rows; i++) if (!Object.is(ye.get(i), ye2.get(i))) throw new Error('ELL dd over scaled i16: backends disagree (the same operations in the same order)');
  // AXPY and WAXPBY over the scaled x, n = 2^20, into fp64 (the read: the template's whole product, zero signs too); checked: bits.
  const updates = (backend: 'js' | 'wasm', yu: Range<1, any>, wu: Range<1, any>): void => {
    axpy(1e-9, x, yu, { arithmetic: formats.dd, backend });
    waxpby(0.5, x, -2, y, wu, { arithmetic: formats.dd, backend });
  };
  const [yu, wu, yu2, wu2] = [0, 1, 2, 3].map(() => vectorOf(ys.slice(0, DD_N), formats.f64));
  for (const backend of ['js', 'wasm'] as const) {
    cases.push({ name: `AXPY dd arithmetic, x i16 scaled, n = 2^20 (${backend})`, group: `axpy20-dd-i16s-${backend}`, bytes: 18 * DD_N, run: () => axpy(1e-9, x, yu!, { arithmetic: formats.dd, backend }) });
    cases.push({ name: `WAXPBY dd arithmetic, x i16 scaled, n = 2^20 (${backend})`, group: `waxpby20-dd-i16s-${backend}`, bytes: 18 * DD_N, run: () => waxpby(0.5, x, -2, y, wu!, { arithmetic: formats.dd, backend }) });
  }
  updates('wasm', yu!, wu!);
  updates('js', yu2!, wu2!);
  for (let i = 0; i < DD_N; i++) if (!Object.is(yu!.get(i), yu2!.get(i)) || !Object.is(wu!.get(i), wu2!.get(i))) throw new Error('AXPY/WAXPBY dd over scaled i16: backends disagree');
  // Outputs in i16 with one scale, in dd arithmetic (WebAssembly computes, the JavaScript's store rounds each pair):
  // AXPY's y and SCAL's x n = 2^20, GEMV N's y M² column-major; checked: the stored codes, bit for bit.
  const outI16 = (): Range<1, any> => scaledI16(ys.subarray(0, DD_N), [DD_N], [false]) as Range<1, any>;
  const [yo, xo] = [outI16(), outI16()];
  const yg = scaledI16(ys.subarray(0, M), [M], [false]) as Range<1, any>;
  for (const backend of ['js', 'wasm'] as const) {
    cases.push({ name: `AXPY dd arithmetic, y i16 scaled, n = 2^20 (${backend})`, group: `axpy20-dd-outi16s-${backend}`, bytes: 12 * DD_N, run: () => axpy(1e-9, y, yo, { arithmetic: formats.dd, backend }) });
    cases.push({ name: `SCAL dd arithmetic, x i16 scaled, n = 2^20 (${backend})`, group: `scal20-dd-outi16s-${backend}`, bytes: 4 * DD_N, run: () => scal(-1, xo, { arithmetic: formats.dd, backend }) });
    cases.push({ name: `GEMV N dd arithmetic, y i16 scaled ${M}², col-major (${backend})`, group: `gemv-dd-outi16s-col-${backend}`, bytes: 8 * M * M, run: () => gemv({ alpha: 1, A: Adcol, x: xm, beta: 0.5, y: yg }, { arithmetic: formats.dd, backend }) });
  }
  const stored = (backend: 'js' | 'wasm'): number[] => {
    const [ya, xa, ygm] = [outI16(), outI16(), scaledI16(ys.subarray(0, M), [M], [false]) as Range<1, any>];
    axpy(1e-9, y, ya, { arithmetic: formats.dd, backend });
    scal(-0.75, xa, { arithmetic: formats.dd, backend });
    gemv({ alpha: 1, A: Adcol, x: xm, beta: 0.5, y: ygm }, { arithmetic: formats.dd, backend });
    return [ya, xa, ygm].flatMap((r) => [...(r.accessor.data as Int16Array)]);
  };
  const [sw, sj] = [stored('wasm'), stored('js')];
  if (sw.some((v, i) => !Object.is(v, sj[i]))) throw new Error('dd outputs in scaled i16: backends disagree');
}

/** A copy of a vector with its storage in the arena (same format, same values). */
function inPlace(v: Range<1, any>): Range<1, any> {
  const r = vector(v.length(), { storage: v.accessor.storage, arithmetic: v.accessor.arithmetic, memory: arena });
  (r.accessor.data as Float64Array).set(v.accessor.data as Float64Array);
  return r;
}

/** A copy of a packed M×M matrix with its storage in the arena. */
function inPlaceMatrix(A: Range<2, any>, layout: 'col' | 'row'): Range<2, any> {
  const r = range((layout === 'col' ? colMajor : rowMajor)<2>({ size: [M, M], storage: A.accessor.storage, arithmetic: A.accessor.arithmetic, memory: arena }));
  (r.accessor.data as Float64Array).set(A.accessor.data as Float64Array);
  return r;
}

// `--only=PREFIX`: time only the cases whose group starts with PREFIX (e.g. dot20: the DD DOT's rows), print, write nothing.
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
if (only !== undefined) cases.splice(0, cases.length, ...cases.filter((c) => c.group.startsWith(only)));
const binary = quick || only !== undefined ? null : compileStream();
const times = new Map<string, number[]>(cases.map((c) => [c.group, []]));
const stream: number[] = [];
for (const c of cases) c.run(); // warm-up: compile every kernel
for (let r = 0; r < rounds; r++) {
  if (binary) stream.push(streamDot(binary, N));
  for (const c of cases) {
    const t0 = performance.now();
    c.run();
    times.get(c.group)!.push(performance.now() - t0);
  }
}

const median = (v: number[]): number => { const s = [...v].sort((p, q) => p - q); return s[s.length >> 1]!; };
const streamGBs = stream.length ? median(stream) : NaN;
const ms = (g: string): number => median(times.get(g)!);
const rows = cases.map((c) => {
  const t = ms(c.group), gbs = c.bytes / t / 1e6;
  return [c.name, t.toFixed(1), gbs.toFixed(2), Number.isFinite(streamGBs) ? `${(100 * gbs / streamGBs).toFixed(0)} %` : '—'];
});
const ratio = (a: string, b: string): string => (ms(a) / ms(b)).toFixed(2);
/** The GB/s of case `group` moving `bytes`, as a fraction of the STREAM dot's. */
const ofStream = (bytes: number, group: string): string => (Number.isFinite(streamGBs) ? ((bytes / ms(group) / 1e6) / streamGBs).toFixed(2) : '—');
/** The lazy DD DOT's goal rows (wasmKernelForms().ddDotLazy). */
function ddDotLazyGoals(): string[][] {
  return ['veltkamp', 'bits'].flatMap((split) => [
    [`DD DOT 2^20 (wasm, lazy form, ${split} split) time / fp64 DOT 2^20 (wasm) time (goal ≤ 1.5)`, ratio(`dot20-dd-wasm-lazy-${split}`, 'dot20-f64-wasm')],
    [`DD DOT 2^20: double-double package time / wasm lazy form (${split} split) time (goal ≥ 6)`, ratio('dot20-dd-package', `dot20-dd-wasm-lazy-${split}`)],
    [`DD DOT 2^20: default form time / lazy form (${split} split) time (wasm)`, ratio('dot20-dd-wasm', `dot20-dd-wasm-lazy-${split}`)],
  ]);
}
if (only !== undefined) {
  console.log(markdownTable(['case', 'ms', 'GB/s', 'of STREAM'], rows));
  if (only === 'dot20' || only === 'dot20-') {
    console.log(markdownTable(['ratio', 'value'], [
      ['DD DOT 2^20 (wasm) time / fp64 DOT 2^20 (wasm) time (goal ≤ 1.5)', ratio('dot20-dd-wasm', 'dot20-f64-wasm')],
      ['DD DOT 2^20: double-double package time / wasm time (goal ≥ 6)', ratio('dot20-dd-package', 'dot20-dd-wasm')],
      ...ddDotLazyGoals(),
    ]));
  }
  console.log(`fused multiply-add: ${wasmFusedFmaAvailable()}; Node ${process.version} ${process.execArgv.join(' ')}; ${machineDescription()}`);
  process.exit(0);
}
const goals = [
  ['DOT f64 (wasm) vs 1-thread STREAM dot (goal ≥ 0.80)', ofStream(16 * N, 'dot-f64-wasm')],
  ['DOT f64 (wasm, in place) vs 1-thread STREAM dot (goal ≥ 0.80)', ofStream(16 * N, 'dot-f64-wasm-inplace')],
  ['GEMV N f64 col-major (wasm, in place) vs STREAM dot (goal ≥ 0.80)', ofStream(8 * M * M, 'gemv-col-wasm-inplace')],
  ['GEMV N f64 row-major (wasm, in place) vs STREAM dot (goal ≥ 0.80)', ofStream(8 * M * M, 'gemv-row-wasm-inplace')],
  ['GEMV N f64 row-major (wasm, in place, 2 rows a group: before 2026-11-28) vs STREAM dot', ofStream(8 * M * M, 'gemv-row-wasm-inplace-g2')],
  ['DOT in place: f64 time / f32 storage time (wasm; goal ≥ 1.8)', ratio('dot-f64-wasm-inplace', 'dot-f32-wasm-inplace')],
  ['DOT in place: f64 time / bf16 storage time (wasm; goal ≥ 3)', ratio('dot-f64-wasm-inplace', 'dot-bf16-wasm-inplace')],
  ['DOT in place: f64 time / f16 storage time (wasm; goal ≥ 3)', ratio('dot-f64-wasm-inplace', 'dot-f16-wasm-inplace')],
  ['DOT in place: f64 time / i8 storage time (wasm; goal ≥ 4)', ratio('dot-f64-wasm-inplace', 'dot-i8-wasm-inplace')],
  ['DOT in place: f64 time / i8 scaled storage time, scales 2^-7, 2^-5; binary32; 53-bit (wasm; goal ≥ 4)', SCALED_I8.map(([key]) => ratio('dot-f64-wasm-inplace', `dot-i8s-${key}-wasm-inplace`)).join('; ')],
  ['DOT in place: f64 time / i8 scaled storage time in the general chunk (int8PairForms off), scales 2^-7, 2^-5; binary32', ['pow2', 'f32'].map((key) => ratio('dot-f64-wasm-inplace', `dot-i8s-${key}-wasm-inplace-general`)).join('; ')],
  ['ELL SpMV f64 Laplacian 128³ (wasm, in place) vs STREAM dot (goal ≥ 0.60)', ofStream(cases.find((c) => c.group === 'ell-f64-wasm-inplace')!.bytes, 'ell-f64-wasm-inplace')],
  ['DOT in place: f64 time / bf16 storage time, earlier unchecked chunk (wasm)', ratio('dot-f64-wasm-inplace', 'dot-bf16-wasm-inplace-earlier')],
  ['DOT in place: f64 time / f16 storage time, earlier unchecked chunk (wasm)', ratio('dot-f64-wasm-inplace', 'dot-f16-wasm-inplace-earlier')],
  ['DOT in place: f64 time / bf16 storage time, earlier checked chunk (wasm)', ratio('dot-f64-wasm-inplace', 'dot-bf16-wasm-inplace-checked-earlier')],
  ['DOT in place: f64 time / f16 storage time, earlier checked chunk (wasm)', ratio('dot-f64-wasm-inplace', 'dot-f16-wasm-inplace-checked-earlier')],
  ['DOT in place: earlier checked chunk time / lean chunk time (bf16; f16)', `${ratio('dot-bf16-wasm-inplace-checked-earlier', 'dot-bf16-wasm-inplace')}; ${ratio('dot-f16-wasm-inplace-checked-earlier', 'dot-f16-wasm-inplace')}`],
  ['DOT in place: f64 time / bf16; f16 storage time, halfDotPromote shuffle (goal ≥ 3)', ['bf16', 'f16'].map((t) => ratio('dot-f64-wasm-inplace', `dot-${t}-wasm-inplace-form-shuffle`)).join('; ')],
  ['DOT in place: f64 time / bf16; f16 storage time, halfDotPromote memory (goal ≥ 3)', ['bf16', 'f16'].map((t) => ratio('dot-f64-wasm-inplace', `dot-${t}-wasm-inplace-form-memory`)).join('; ')],
  ...LOOKAHEADS.flatMap((ahead) => [
    [`DOT in place: f64 time / f32; bf16; f16 storage time, all with lookahead ${ahead} B (wasm; goals ≥ 1.8; 3; 3)`, ['f32', 'bf16', 'f16'].map((t) => ratio(`dot-f64-wasm-inplace-ahead-${ahead}`, `dot-${t}-wasm-inplace-ahead-${ahead}`)).join('; ')],
    [`DOT in place: time without / with lookahead ${ahead} B (f64; f32; bf16; f16)`, ['f64', 'f32', 'bf16', 'f16'].map((t) => ratio(`dot-${t}-wasm-inplace`, `dot-${t}-wasm-inplace-ahead-${ahead}`)).join('; ')],
  ]),
  ['ELL SpMV f64 Laplacian 128³ (wasm, in place), earlier 4-row loop, vs STREAM dot', ofStream(cases.find((c) => c.group === 'ell-f64-wasm-inplace-earlier')!.bytes, 'ell-f64-wasm-inplace-earlier')],
  ['ELL SpMV f64 Laplacian 128³ (wasm, in place, slots unrolled) vs STREAM dot (goal ≥ 0.60)', ofStream(cases.find((c) => c.group === 'ell-f64-wasm-inplace-unrolled')!.bytes, 'ell-f64-wasm-inplace-unrolled')],
  ['ELL SpMV in place: slot loop time / unrolled slots time (f64; f32)', `${ratio('ell-f64-wasm-inplace', 'ell-f64-wasm-inplace-unrolled')}; ${ratio('ell-f32-wasm-inplace', 'ell-f32-wasm-inplace-unrolled')}`],
  ['ELL SpMV in place: earlier 4-row loop time / current time (f64; f32)', `${ratio('ell-f64-wasm-inplace-earlier', 'ell-f64-wasm-inplace')}; ${ratio('ell-f32-wasm-inplace-earlier', 'ell-f32-wasm-inplace')}`],
  ['DOT f64: staged time / in-place time (wasm)', ratio('dot-f64-wasm', 'dot-f64-wasm-inplace')],
  ['GEMV N f64 col-major: staged time / in-place time (wasm)', ratio('gemv-col-wasm', 'gemv-col-wasm-inplace')],
  ['GEMV N f64 row-major: staged time / in-place time (wasm)', ratio('gemv-row-wasm', 'gemv-row-wasm-inplace')],
  ['AXPY f64: staged time / in-place time (wasm)', ratio('axpy-wasm', 'axpy-wasm-inplace')],
  ['ELL SpMV f64: staged time / in-place time (wasm)', ratio('ell-f64-wasm', 'ell-f64-wasm-inplace')],
  ['GEMV N f64 col-major (wasm) vs STREAM dot (goal ≥ 0.80)', Number.isFinite(streamGBs) ? ((8 * M * M / ms('gemv-col-wasm') / 1e6) / streamGBs).toFixed(2) : '—'],
  ['GEMV N f64 row-major (wasm) vs STREAM dot (goal ≥ 0.80)', Number.isFinite(streamGBs) ? ((8 * M * M / ms('gemv-row-wasm') / 1e6) / streamGBs).toFixed(2) : '—'],
  ['DOT: f64 time / f32 storage time (wasm; goal ≥ 1.8)', ratio('dot-f64-wasm', 'dot-f32-wasm')],
  ['DOT: f64 time / bf16 storage time (wasm; goal ≥ 3)', ratio('dot-f64-wasm', 'dot-bf16-wasm')],
  ['DOT: f64 time / f16 storage time (wasm; goal ≥ 3)', ratio('dot-f64-wasm', 'dot-f16-wasm')],
  ['DOT: f64 time / i8 storage time (wasm; goal ≥ 4)', ratio('dot-f64-wasm', 'dot-i8-wasm')],
  ['DOT f64: js time / wasm time', ratio('dot-f64-js', 'dot-f64-wasm')],
  ['DOT f64: stdlib ddot time / wasm time', ratio('dot-stdlib', 'dot-f64-wasm')],
  ['DOT f32 storage, f32 arithmetic: js time / wasm time', ratio('dot-f32-f32-js', 'dot-f32-f32-wasm')],
  ['GEMV N f64 col-major: js time / wasm time', ratio('gemv-col-js', 'gemv-col-wasm')],
  ['GEMV N f64 row-major: js time / wasm time', ratio('gemv-row-js', 'gemv-row-wasm')],
  ['AXPY f64: js time / wasm time', ratio('axpy-js', 'axpy-wasm')],
  ['TRSV L col-major time / row-major time (JS kernel, layout-aware loop)', ratio('trsv-col', 'trsv-row')],
  ['TRSV L col-major: js time / wasm time', ratio('trsv-col', 'trsv-col-wasm')],
  ['TRSV L col-major: stdlib dtrsv time / wasm time (goal ≥ 2)', dtrsv ? ratio('trsv-col-stdlib', 'trsv-col-wasm') : 'dtrsv not installed'],
  ['TRSV L row-major: stdlib dtrsv time / wasm time (goal ≥ 2)', dtrsv ? ratio('trsv-row-stdlib', 'trsv-row-wasm') : 'dtrsv not installed'],
  ['TRSV L row-major: js time / wasm time', ratio('trsv-row', 'trsv-row-wasm')],
  ['ELL SpMV f64 Laplacian 128³ (wasm) vs STREAM dot (goal ≥ 0.60)', Number.isFinite(streamGBs) ? ((cases.find((c) => c.group === 'ell-f64-wasm')!.bytes / ms('ell-f64-wasm') / 1e6) / streamGBs).toFixed(2) : '—'],
  ['ELL SpMV f64: js time / wasm time', ratio('ell-f64-js', 'ell-f64-wasm')],
  ['DD DOT 2^20 (wasm) time / fp64 DOT 2^20 (wasm) time (goal ≤ 1.5)', ratio('dot20-dd-wasm', 'dot20-f64-wasm')],
  ['DD DOT 2^20: double-double package time / wasm time (goal ≥ 6)', ratio('dot20-dd-package', 'dot20-dd-wasm')],
  ['DD DOT 2^20: js time / wasm time', ratio('dot20-dd-js', 'dot20-dd-wasm')],
  ['ASUM dd arithmetic 2^20: js time / wasm time', ratio('asum20-dd-js', 'asum20-dd-wasm')],
  ['NRM2 dd arithmetic 2^20: js time / wasm time', ratio('nrm220-dd-js', 'nrm220-dd-wasm')],
  ...ddDotLazyGoals(),
  ...DD_SPLITS.flatMap((split) => [
    [`DD DOT 2^20 (wasm, ${split} split) time / fp64 DOT 2^20 (wasm) time (goal ≤ 1.5)`, ratio(`dot20-dd-wasm-${split}`, 'dot20-f64-wasm')],
    [`DD DOT 2^20: double-double package time / wasm ${split} split time (goal ≥ 6)`, ratio('dot20-dd-package', `dot20-dd-wasm-${split}`)],
    [`DD DOT 2^20: default form time / ${split} split time (wasm)`, ratio('dot20-dd-wasm', `dot20-dd-wasm-${split}`)],
  ]),
  ['GEMV N dd col-major: js time / wasm time', ratio('gemv-dd-col-js', 'gemv-dd-col-wasm')],
  ['GEMV N dd row-major: js time / wasm time', ratio('gemv-dd-row-js', 'gemv-dd-row-wasm')],
  ['GEMV N dd col-major (wasm) time / fp64 GEMV (wasm) time', ratio('gemv-dd-col-wasm', 'gemv-col-wasm')],
  ['ELL SpMV dd: js time / wasm time', ratio('ell-dd-js', 'ell-dd-wasm')],
  ['dd arithmetic over i16 scaled: js time / wasm time (DOT 2^20; ASUM 2^20; GEMV N col-major; ELL SpMV per-row scales)', ['dot20', 'asum20', 'gemv', 'ell'].map((k) => (k === 'gemv' ? ratio('gemv-dd-i16s-col-js', 'gemv-dd-i16s-col-wasm') : ratio(`${k}-dd-i16s-js`, `${k}-dd-i16s-wasm`))).join('; ')],
  ['dd arithmetic over i16 scaled: js time / wasm time (AXPY 2^20; WAXPBY 2^20)', ['axpy20', 'waxpby20'].map((k) => ratio(`${k}-dd-i16s-js`, `${k}-dd-i16s-wasm`)).join('; ')],
  ['dd arithmetic into i16 scaled (the JavaScript store): js time / wasm time (AXPY y 2^20; SCAL x 2^20; GEMV N y col-major)', ['axpy20-dd-outi16s', 'scal20-dd-outi16s', 'gemv-dd-outi16s-col'].map((k) => ratio(`${k}-js`, `${k}-wasm`)).join('; ')],
  ['TRSV L dd col-major: js time / wasm time', ratio('trsv-dd-col-js', 'trsv-dd-col-wasm')],
  ['TRSV L dd row-major: js time / wasm time', ratio('trsv-dd-row-js', 'trsv-dd-row-wasm')],
  ...(['col', 'row'] as const).flatMap((layout) => [
    [`TRSV L f64, x f16, ${layout}-major: js time / wasm time`, ratio(`trsv-xf16-${layout}-js`, `trsv-xf16-${layout}-wasm`)],
    [`TRSV L f64, x i16 scaled, ${layout}-major: js time / wasm time`, ratio(`trsv-xi16s-${layout}-js`, `trsv-xi16s-${layout}-wasm`)],
    [`TRSV L f64 dd accumulation, ${layout}-major: js time / wasm time`, ratio(`trsv-ddacc-${layout}-js`, `trsv-ddacc-${layout}-wasm`)],
    [`TRSV L dd, x f16, ${layout}-major: js time / wasm time`, ratio(`trsv-dd-xf16-${layout}-js`, `trsv-dd-xf16-${layout}-wasm`)],
    [`TRSV L dd, x i16 scaled, ${layout}-major: js time / wasm time`, ratio(`trsv-dd-xi16s-${layout}-js`, `trsv-dd-xi16s-${layout}-wasm`)],
  ]),
];

if (quick) {
  console.log('quick run (small sizes, labels keep the full sizes): nothing written');
  console.log(rows.map((r) => r.join('  ')).join('\n'));
  console.log(goals.map((g) => g.join(': ')).join('\n'));
  process.exit(0);
}
writeResults('wasm-cpu', { rounds, loadAverage: { start: loadAtStart, end: loadavg()[0] }, dtrsv: !!dtrsv, stream: { binary: !!binary, dotGBs: stream }, wasmSimd: wasmSimdAvailable(), fusedFma: wasmFusedFmaAvailable(), node: process.version, execArgv: process.execArgv, cases: cases.map((c) => ({ name: c.name, group: c.group, bytes: c.bytes, ms: times.get(c.group) })) });
writePerformanceSection('wasm-cpu', `## The CPU at memory speed: WebAssembly SIMD against the generated JavaScript — ${today()}

Machine: ${machineDescription()}; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end${loadAtStart > 1.5 ? ' (**other load was present**: absolute figures are low and noisy)' : ''}.
Ratios come from interleaved rounds (${rounds} rounds, every case once per round, median); the C STREAM dot
(gcc -O3 -march=native -fopenmp, OMP_NUM_THREADS=1, n = 2^24) ran once per round in a child process: median
${Number.isFinite(streamGBs) ? streamGBs.toFixed(2) + ' GB/s' : 'not available'}.
GB/s counts the bytes of the operands' storage read (and, for AXPY, written) once. Re-run on a quiet machine with
\`node dist/bench/wasm-cpu.js\`.

${markdownTable(['case', 'ms', 'GB/s', 'of STREAM dot'], rows)}

${markdownTable(['ratio (issue 20 goals)', 'measured'], goals)}

Reading: for ranges in ordinary ArrayBuffers the WebAssembly kernels copy operands in 32 KiB chunks into their
memory before computing (docs/guide.md, "On the CPU"); where a kernel streams fp64 from DRAM once (DOT), that copy
is a second pass through the cache. The rows marked "in place" are the same operands allocated in a \`wasmArena\`
(the \`memory\` option of the range factories), which DOT, GEMV, AXPY and ELL SpMV read (and write) where they lie —
the same results bit for bit (same chunks and lane order); the in-place goal rows measure the memory-speed goals
(≥ 80 % of STREAM, f32 ≥ 1.8×, 16-bit ≥ 3×, i8 ≥ 4×) on them.

TRSV times include resetting its right-hand side (4096 doubles; stdlib's too). ELL SpMV bytes: values and
column indices once, x read and y written once. The double-double kernels (DD DOT, GEMV, ELL) form exact
products ${wasmFusedFmaAvailable() ? "with relaxed SIMD's multiply-add, which the start-up probe found fused" : "with Dekker's algorithm (the DD DOT: the guarded bit split; GEMV, ELL: Veltkamp's splitting; this engine's relaxed SIMD is off or unfused)"} (Node ${process.version}${process.execArgv.length ? ', ' + process.execArgv.join(' ') : ''}).
Worker threads: bench/threads.ts.


Where the narrow DOT rows stand: the bf16 and f16 chunks are bound by their instructions, not by memory. Every
element becomes an f64 lane (one \`f64x2.promote_low_f32x4\` per two elements and operand, the cheapest widening
WebAssembly SIMD128 has); bf16 adds a shift or a mask, f16 the rebias and the Inf/NaN select of its exact decoder.
In the L2 cache (a 2-core VM, 2026-11-27, n = 2^14 in a wasmArena, best of 200 rounds) a DOT takes per element:
f64 0.35, f32 0.41, bf16 0.74, f16 1.1 ns; from DRAM the fp64 DOT takes about 1.3 ns per element on the quiet
host, so a 16-bit row at 3× would need about 0.44 ns — below what these decoders cost even in cache.
Two unscaled operands of one 16-bit format now take a checked chunk (products of bf16 pairs in binary32, fp16
without the Inf/NaN select) that falls back to the exact one at an element it does not handle; the "earlier
unchecked chunk" rows time the exact chunk alone. The checked chunk runs in its lean form (wasmKernelForms().halfDotLean:
bf16 checks its products for zero and underflow only, Inf, NaN and overflow showing in the sums at each check; fp16
reads its even elements by a second load 2 bytes earlier instead of a shift; steps counted by one pointer — 20 and
28 SIMD instructions a step of 8 instead of 22 and 30, same bits); the "earlier checked chunk" rows time the form
before it. The "lookahead" rows are a candidate (wasmKernelForms().dotLookahead, off by default; same bits,
checked in this run): each step of the DOT chunk (general and lean 16-bit; not the i8 pair chunk) also reads a byte
of each operand that many bytes ahead, so that the line's transfer from memory starts early (WebAssembly has no
prefetch instruction).

A model of the in-place DOT rows from DRAM (session 19; a hypothesis that fits the Xeon host's ratios of 2026-11-27
within about 10 %): one core keeps as many cache lines in flight as its out-of-order window holds — about
min(512 / µops per 64 bytes of operands, 192 / loads per 64 bytes), at most about 16 (the fill buffers, which the
fp64 DOT reaches) —, and the bandwidth follows. µops per 64 bytes from llvm-mca (icelake-server) on V8's code: fp64
25, fp32 35 (16 loads: 12 lines, predicted ratio 1.50, measured 1.55), bf16 63 (8 lines: 2.0, measured 2.20), fp16
81 (6 lines: 1.6, measured 1.76), i8 about 44 (12 lines: 5.8, measured 5.56). Session 19 timed six fp32 pair forms
with fewer loads or µops (predicted up to 1.91); on this Xeon they read 1.28–1.50 against 1.51 for the general chunk
(bench/wasm-dot-narrow.ts, 2026-11-27) and came within noise of it on the AMD VM, so they went. The 16-bit chunks at 3× would need at
most about 42 µops per 64 bytes, where the fixed order's widening and addition alone take 24 (8 conversions of 2 µops,
8 f64x2 additions) — out of reach for 128-bit WebAssembly SIMD under this model; the rows "halfDotPromote memory"
(products widened from a stored copy, no shuffles: fewer shuffle-port µops but more µops in all, 67) test it.
ELL's "earlier 4-row loop" rows time the loop the 8-row one
replaced (wasmKernelForms; same bits).

"int8 scaled": i8 operands with one scale each (the i8 rows' integers). Where both scales are powers of two (or short
enough for n) every read value, product and partial sum is an exact integer times S = sx·sy, so the DOT takes the i8
chunk's integer sums and multiplies them by S; scales of at most 46 significant bits (binary32 ones among them) form
each product as S·(qx·qy) from an exact i16 product, one rounding (\`int8PairForms\`, on; the same bits as the
general chunk, checked in this run; its rows "general chunk" time the form before). 53-bit scales, such as
fitScales gives, keep the general chunk: each read value sx·qx rounds, so it is converted and multiplied per element.

Candidate and earlier forms (src/backends/wasm/wasm-kernel-forms.ts), each checked in this run against the default
form before timing: ELL's "slots unrolled" rows (off by default) write the slots out one by one (no slot loop; same
bits). The DD DOT's default splits x by a mask of its bit pattern and y by an integer rounding (5 instructions for
both factors instead of Veltkamp's 8) in every block of 512 elements whose factors lie in [2^-480, 2^480), after a
scan of the block, and by Veltkamp's splitting elsewhere — the same exact products, so the same bits on every input;
its "veltkamp split" rows time the form it replaced (Veltkamp's splitting everywhere), "veltkamp-pinned split" that
with the constant loaded once${wasmFusedFmaAvailable() ? ' — with the fused multiply-add found here, no split runs and these rows time the same kernel' : ''}.`);
console.log(rows.map((r) => r.join('  ')).join('\n'));
console.log(goals.map((g) => g.join(': ')).join('\n'));
