/**
 * Which CPU backend runs a call: WebAssembly SIMD (src/backends/wasm) where it supports the signature, generated
 * JavaScript (src/backends/cpu) otherwise — the general path (users' formats and accumulations, RNS, dd) and
 * the fallback where WebAssembly SIMD is missing or a Content-Security-Policy forbids compiling it. Both compute
 * the same operations on every element; they may add a reduction's terms in a different order (WebAssembly in
 * SIMD lanes), which the bounds cover (kernels/shared/bound-terms.ts).
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { refuse, type BackendName, type KernelName, type Refusal } from '../../src/backends/backend.js';
import { wasmCompilationBlocked, wasmSimdAvailable } from '../../src/backends/wasm/wasm-runtime.js';
import { wasmStorageOf, wasmStorageOfFormat } from '../../src/backends/wasm/wasm-storage.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { accumulationNames, recursiveAccumulation, resolveAccumulation, type Accumulation } from './accumulation.js';

/**
 * The CPU values of `options.backend`: `'cpu'` (default; WebAssembly SIMD where it runs the call, generated
 * JavaScript otherwise — `cpuBackendOf` (./cpu-backend-of.ts) says which and why), `'wasm'` (WebAssembly only: a typed error
 * naming what it cannot run), `'js'` (generated JavaScript only).
 * @group Kernels
 */
export type CpuBackendOption = 'cpu' | 'wasm' | 'js';

/** The kernels that have a WebAssembly program. */
export const WASM_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['dot', 'gemv', 'trsv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'asum', 'nrm2']);

/** The kernels without a reduction: the accumulation option is validated and does not change what they compute. */
export const ELEMENTWISE_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['axpy', 'waxpby', 'scal']);

/**
 * The kernels whose WebAssembly program also writes double-double outputs, interleaved (`dd`) and split
 * (`dd-split`), with the JavaScript kernels' bits (see {@link isDdOutput}).
 */
export const WASM_DD_OUTPUT_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['gemv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'trsv']);

/**
 * The kernels whose WebAssembly program, in fp64, fp32 and double-double arithmetic (and fp64 with the `dd`
 * accumulation), also writes outputs it does not store itself — a scaled range (one scale), fp16, bf16 or integer
 * storage — through the JavaScript kernels' own store of each result (GEMV and ELL SpMV: their combination with α
 * and β, kernels/gemv/combine-sums-cpu.ts and combine-dd-sums-cpu.ts; the updates: kernels/shared/store-numbers-cpu.ts,
 * a double-double result as its pair): the JavaScript's bits wherever the results are.
 */
export const WASM_STORED_OUTPUT_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['gemv', 'ellSpmv', 'axpy', 'waxpby', 'scal']);

/** Whether an output is stored in the registered double-double storage, interleaved or split (never scaled). */
export function isDdOutput(a: Range<any, any>['accessor']): boolean {
  const name = a.storage.name;
  return (name === 'dd' || name === 'dd-split') && findFormat(name)?.storage === a.storage && !a.scale;
}

/**
 * The kernels whose WebAssembly program also computes in double-double (see {@link wasmNumericsOf}): sums for the
 * reductions and TRSV, the templates' operations for the element-wise updates and TRSV in double-double arithmetic.
 */
export const WASM_DD_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['dot', 'gemv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'trsv', 'asum', 'nrm2']);

/**
 * The kernels whose WebAssembly program also sums in double-double (see {@link wasmNumericsOf}) over operands it reads
 * with one scale, as the JavaScript kernels read them (src/backends/wasm/wasm-dd-read.ts): fp64 arithmetic's double
 * fl(v·s), double-double arithmetic's pair (v, 0)·(s, 0) — ELL SpMV's values also with one scale per row (its
 * kernel refusal checks them); AXPY's x and WAXPBY's x and y read by the template's whole product, zero signs
 * included (kernels/shared/update-dd-output-wasm.ts); TRSV's A with any scales, staged a column at a time as the
 * JavaScript reads it (kernels/trsv/trsv-scaled-a.ts). Their outputs ({@link WASM_STORED_OUTPUT_KERNELS}) may be
 * scaled too: AXPY's y and SCAL's x, read as these inputs are, are stored through the JavaScript kernels' store.
 */
export const WASM_DD_SCALED_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['asum', 'nrm2', 'dot', 'gemv', 'ellSpmv', 'axpy', 'waxpby', 'trsv']);

/** The kernels whose vectors with a scale per element keep the automatic choice in JavaScript (see {@link automaticPrefersJs}). */
const TWIN_PREFERS_JS: ReadonlySet<KernelName> = new Set<KernelName>(['dot', 'asum', 'nrm2', 'axpy', 'waxpby', 'scal']);

/** Whether a vector has a scale per element (not one for the whole vector). */
export function scaledPerElement(a: Range<any, any>['accessor']): boolean {
  return a.dimensionality === 1 && a.scale?.mask[0] === true;
}

/**
 * Whether the WebAssembly program leaves an operand's scales to JavaScript code that reads or stores them as the
 * JavaScript kernel does, so that any scales run — one, or one per row, column or element: TRSV's A summed in
 * double-double (its columns staged already scaled, kernels/trsv/trsv-scaled-a.ts), every vector with a scale per
 * element (read from an unscaled twin, kernels/shared/scale-twin.ts; written through the JavaScript kernels' store),
 * and GEMV's and TRSV's A with scales per row, column or element (an unscaled twin too; ELL SpMV's values scaled per
 * slot: its kernel refusal, kernels/ell-spmv/ell-spmv-wasm.ts).
 */
function scalesReadInJs(kernel: KernelName, name: string, numerics: string, a: Range<any, any>['accessor']): boolean {
  return (kernel === 'trsv' && name === 'A' && numerics === 'dd') || scaledPerElement(a) || ((kernel === 'gemv' || kernel === 'trsv') && name === 'A' && scaledPerLine(a));
}

/** Whether a matrix has scales per row, column or element (not one for the whole matrix). */
export function scaledPerLine(a: Range<any, any>['accessor']): boolean {
  return a.dimensionality === 2 && a.scale !== undefined && a.scale.mask.some((m: boolean) => m);
}

/**
 * The kernels whose WebAssembly program, in every arithmetic and accumulation it runs (fp64's `dd` and double-double
 * arithmetic too), also solves into an x it does not store itself — a scaled range (one scale), fp16, bf16 or integer
 * storage — storing each xᵢ through the JavaScript kernel's own store and reading it back as later rows read it
 * (kernels/trsv/trsv-stored-x-wasm.ts; in double-double arithmetic, kernels/trsv/trsv-dd-stored-x-wasm.ts).
 */
export const WASM_STORED_SOLUTION_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['trsv']);

/** The kernels of {@link WASM_DD_KERNELS}, for messages ("dot, gemv, ellSpmv"). */
function ddKernelList(): string {
  return [...WASM_DD_KERNELS].join(', ');
}

/** The kernels whose WebAssembly program also computes in fp32 arithmetic (see {@link wasmNumericsOf}). */
export const WASM_F32_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['dot', 'gemv', 'trsv', 'ellSpmv', 'asum', 'nrm2', 'axpy', 'waxpby', 'scal']);

/** The kernels whose WebAssembly program also sums with the compensated `kahan` accumulation (see {@link wasmNumericsOf}). */
export const WASM_KAHAN_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['dot', 'gemv', 'trsv', 'ellSpmv', 'asum', 'nrm2']);

/** The kernels of {@link WASM_KAHAN_KERNELS} that also sum with it in fp32 arithmetic. */
export const WASM_KAHAN_F32_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['dot', 'gemv', 'trsv', 'ellSpmv', 'asum', 'nrm2']);

/**
 * The kernels whose WebAssembly program also sums with the `pairwise` and `dot2` accumulations, in fp64 and fp32
 * arithmetic, in the accumulation's own order: the JavaScript kernel's bits (see {@link wasmNumericsOf}).
 */
export const WASM_ORDERED_KERNELS: ReadonlySet<KernelName> = new Set<KernelName>(['dot', 'gemv', 'asum', 'nrm2', 'ellSpmv', 'trsv']);

/** The numerics of {@link WASM_ORDERED_KERNELS}: the accumulation and the arithmetic. */
export type OrderedNumerics = 'pairwise-f64' | 'pairwise-f32' | 'dot2-f64' | 'dot2-f32';

/** The accumulation and arithmetic of ordered numerics, or undefined for the others. */
export function orderedNumerics(n: string | Refusal | undefined): { accumulation: 'pairwise' | 'dot2'; arithmetic: 'f64' | 'f32' } | undefined {
  if (typeof n !== 'string') return undefined;
  const m = /^(pairwise|dot2)-(f64|f32)$/.exec(n);
  return m ? { accumulation: m[1] as 'pairwise' | 'dot2', arithmetic: m[2] as 'f64' | 'f32' } : undefined;
}

/**
 * What a WebAssembly program computes: `'f64'` (fp64 arithmetic, recursive accumulation), `'f32'` (fp32
 * arithmetic, recursive accumulation: f32x4 lanes), `'dd'` (a sum in double-double of exact products:
 * double-double arithmetic with the recursive or `dd` accumulation, or fp64 arithmetic with the `dd`
 * accumulation), `'kahan-f64'` and `'kahan-f32'` (the registered `kahan` accumulation, Neumaier's compensated sum,
 * in fp64 or fp32 arithmetic), {@link OrderedNumerics} (the registered `pairwise` or `dot2` in fp64 or fp32
 * arithmetic, term by term in the JavaScript order); a refusal for the rest (other arithmetics, other accumulations).
 */
export function wasmNumericsOf(arithmetic: ArithmeticFormat, accumulation: Accumulation): 'f64' | 'f32' | 'dd' | 'kahan-f64' | 'kahan-f32' | OrderedNumerics | Refusal {
  const f64 = findFormat('f64')!.arithmetic, dd = findFormat('dd')?.arithmetic;
  // The registered strategies only: a user's accumulation of the same name has other templates.
  const registered = (name: string): boolean => accumulation.name === name && accumulationNames().includes(name) && resolveAccumulation(name) === accumulation;
  const ddAccumulation = registered('dd');
  const f32 = arithmetic === findFormat('f32')!.arithmetic;
  if ((f32 || arithmetic === f64) && (registered('pairwise') || registered('dot2'))) return `${accumulation.name as 'pairwise' | 'dot2'}-${f32 ? 'f32' : 'f64'}`;
  if (f32) {
    if (registered('kahan')) return 'kahan-f32';
    return accumulation === recursiveAccumulation ? 'f32'
      : { code: 'INVALID_OPTION', parameter: 'options.accumulation', reason: `WebAssembly sums in f32 arithmetic with the recursive, kahan, pairwise or dot2 accumulation only (not ${accumulation.name})` };
  }
  if (arithmetic !== f64 && (dd === undefined || arithmetic !== dd)) {
    return { code: 'INVALID_OPTION', parameter: 'options.arithmetic', reason: `WebAssembly computes in f64, f32 or double-double arithmetic only (not ${arithmetic.name})` };
  }
  if (arithmetic === f64 && registered('kahan')) return 'kahan-f64';
  if (accumulation !== recursiveAccumulation && !ddAccumulation) {
    const which = arithmetic === f64 ? 'with the recursive, dd, kahan, pairwise or dot2 accumulation' : 'in double-double arithmetic with the recursive or dd accumulation';
    return { code: 'INVALID_OPTION', parameter: 'options.accumulation', reason: `WebAssembly sums ${which} only (not ${accumulation.name})` };
  }
  return arithmetic === f64 && !ddAccumulation ? 'f64' : 'dd';
}

/** A call as the CPU backends see it. */
export interface CpuCall {
  readonly kernel: KernelName;
  /** Operands by parameter name, with whether the kernel writes them. */
  readonly operands: readonly (readonly [string, Range<any, any>, 'read' | 'write'])[];
  readonly arithmetic: ArithmeticFormat;
  readonly accumulation: Accumulation;
  /** A kernel-specific reason the WebAssembly program cannot run this call (e.g. a layout), if any. */
  readonly kernelRefusal?: Refusal;
}

/** Why the WebAssembly backend cannot run the call, or `undefined` when it can. */
export function wasmRefusal(call: CpuCall): Refusal | undefined {
  const option = (reason: string, parameter = 'options.backend'): Refusal => ({ code: 'INVALID_OPTION', parameter, reason });
  if (!wasmSimdAvailable()) return option('this JavaScript engine has no WebAssembly SIMD128');
  if (!WASM_KERNELS.has(call.kernel)) return option(`${call.kernel} has no WebAssembly program yet`);
  const numerics = wasmNumericsOf(call.arithmetic, call.accumulation);
  if (typeof numerics !== 'string') return numerics;
  if (numerics === 'dd' && !WASM_DD_KERNELS.has(call.kernel)) {
    return call.arithmetic === findFormat('f64')!.arithmetic
      ? option(`WebAssembly sums ${call.kernel} with the recursive accumulation only (the dd accumulation: ${ddKernelList()} only)`, 'options.accumulation')
      : option(`WebAssembly computes ${call.kernel} in f64 arithmetic only (double-double: ${ddKernelList()} only)`, 'options.arithmetic');
  }
  if ((numerics === 'kahan-f64' || numerics === 'kahan-f32') && !WASM_KAHAN_KERNELS.has(call.kernel)) {
    return option(`WebAssembly sums ${call.kernel} with the recursive accumulation only (kahan: ${[...WASM_KAHAN_KERNELS].join(', ')} only)`, 'options.accumulation');
  }
  if (orderedNumerics(numerics) && !WASM_ORDERED_KERNELS.has(call.kernel)) {
    return option(`WebAssembly sums ${call.kernel} with the recursive accumulation only (${call.accumulation.name}: ${[...WASM_ORDERED_KERNELS].join(', ')} only)`, 'options.accumulation');
  }
  if (numerics === 'kahan-f32' && !WASM_KAHAN_F32_KERNELS.has(call.kernel)) {
    return option(`WebAssembly sums ${call.kernel} with the kahan accumulation in f64 arithmetic only (in f32: ${[...WASM_KAHAN_F32_KERNELS].join(', ')} only)`, 'options.arithmetic');
  }
  if (numerics === 'f32' && !WASM_F32_KERNELS.has(call.kernel)) {
    return option(`WebAssembly has no f32 arithmetic for ${call.kernel} (f32: ${[...WASM_F32_KERNELS].join(', ')} only)`, 'options.arithmetic');
  }
  for (const [name, r, use] of call.operands) {
    if (use === 'write' && WASM_DD_OUTPUT_KERNELS.has(call.kernel) && isDdOutput(r.accessor)) continue;
    const s = scalesReadInJs(call.kernel, name, numerics, r.accessor) ? wasmStorageOfFormat(r.accessor.storage) : wasmStorageOf(r.accessor);
    if (typeof s === 'string') return { code: 'INVALID_FORMAT', parameter: name, reason: s };
    // TRSV's x is stored and read back through the JavaScript kernel's own store and load, whatever its storage.
    if (use === 'write' && WASM_STORED_SOLUTION_KERNELS.has(call.kernel)) continue;
    // Outputs stored through the JavaScript kernels' own store, in every arithmetic WebAssembly computes in.
    if (use === 'write' && WASM_STORED_OUTPUT_KERNELS.has(call.kernel)) continue;
    if (numerics === 'dd' && r.accessor.scale && use === 'read' && !WASM_DD_SCALED_KERNELS.has(call.kernel)) {
      const reason = `WebAssembly reads scaled operands in double-double in ${[...WASM_DD_SCALED_KERNELS].join(', ')} only (not ${call.kernel})`;
      return { code: 'INVALID_FORMAT', parameter: name, reason };
    }
    if (use === 'write' && (!s.writable || r.accessor.scale)) return { code: 'INVALID_FORMAT', parameter: name, reason: `WebAssembly writes unscaled f64 and f32 storage only (not ${r.accessor.scale ? 'scaled ' : ''}${s.name})` };
  }
  return call.kernelRefusal;
}

/**
 * Why the automatic choice (`backend: 'cpu'`) takes the generated JavaScript for a call WebAssembly could run, or
 * undefined. The `dot2` sums are scalar chains of TwoSum in either language and give the same bits; WebAssembly did not
 * run them faster (quiet H100 host, 2026-11-27, n = 2^20: 0.71–1.15× the JavaScript's speed in fp64, 1.01–1.06× in
 * fp32), so the automatic choice keeps them in JavaScript. ELL SpMV's and TRSV's `pairwise` and `dot2` sums take
 * one WebAssembly call per row (its terms gathered in JavaScript): 4–10× slower than the generated JavaScript for ELL
 * on the 3-D Laplacian 40³, 0.3–3.6× (mostly slower) for TRSV at n = 64 and 1024 (this shared 2-core VM,
 * 2026-11-27, short probes), so they stay there too, as does TRSV in double-double arithmetic or with the dd accumulation (below).
 * `backend: 'wasm'` still runs them in WebAssembly.
 */
export function automaticPrefersJs(call: Pick<CpuCall, 'arithmetic' | 'accumulation'> & { readonly kernel?: KernelName; readonly operands?: CpuCall['operands'] }): string | undefined {
  const numerics = wasmNumericsOf(call.arithmetic, call.accumulation);
  // A vector read with a scale per element goes through a twin of the JavaScript's reads (kernels/shared/scale-twin.ts):
  // one more pass over it in JavaScript, as long as the JavaScript kernel's whole pass for DOT, ASUM, NRM2 and the
  // updates. Interleaved probe on this shared 2-core VM (2026-11-27, load ≈ 14, n = 2^17, i16 per element, best of 13):
  // fp64 DOT 0.68×, double-double AXPY 0.82× the JavaScript's speed; so those stay in JavaScript (the same bits;
  // `backend: 'wasm'` runs them). GEMV, ELL SpMV and TRSV read their vector once against O(m·n) work: WebAssembly
  // (fp64 GEMV, 512², x per element: 1.9×).
  const twinned = call.kernel !== undefined && TWIN_PREFERS_JS.has(call.kernel)
    ? call.operands?.find(([name, r]) => scaledPerElement(r.accessor) && !(call.kernel === 'waxpby' && name === 'w')) : undefined;
  // A matrix scaled per row, column or element (GEMV's, TRSV's A outside double-double) is read into a twin the same way:
  // a JavaScript pass over all of A, as long as the JavaScript kernel's own (same probe, 512², per row: fp64 GEMV 0.29×,
  // double-double GEMV 0.16×, fp64 TRSV 0.19×); so it stays there too.
  // (TRSV in double-double stages its columns already scaled instead: its own reason below.)
  const perLine = (call.kernel === 'gemv' || (call.kernel === 'trsv' && numerics !== 'dd')) && call.operands?.some(([name, r]) => name === 'A' && scaledPerLine(r.accessor));
  if (perLine) return `A: scales per row, column or element are read through a JavaScript pass over A before WebAssembly's in ${call.kernel}, slower than the generated JavaScript alone (the same bits), so the automatic choice keeps it there`;
  if (twinned) return `${twinned[0]}: a scale per element is read through a JavaScript pass before WebAssembly's in ${call.kernel}, slower than the generated JavaScript alone (the same bits), so the automatic choice keeps it there`;
  // TRSV in double-double: one WebAssembly call and one staged column per unknown. On the H100 host (bench/wasm-cpu.ts,
  // 2026-11-27, n = 4096) 4.5× the generated JavaScript's speed column-major but 0.58× row-major, and 0.4× at n = 256
  // here; this choice sees no layout, so it keeps JavaScript (the same bits; `backend: 'wasm'` runs it).
  if (numerics === 'dd' && call.kernel === 'trsv' && call.arithmetic.kind === 'dd') return "options.arithmetic: TRSV in double-double runs a column per WebAssembly call, slower than the generated JavaScript on row-major matrices and small n (the same bits), so the automatic choice keeps it there";
  // fp64 arithmetic with the dd accumulation: the same column-per-call solve. Interleaved probe on the shared 2-core
  // VM (2026-11-27, load ≈ 13, fastest of 7–15 runs): 1.3–1.9× the generated JavaScript's speed with op(A) by columns,
  // 0.55–0.9× by rows, at n = 1024, 2048, 4096; this choice sees no layout (nor trans), so it keeps JavaScript.
  if (numerics === 'dd' && call.kernel === 'trsv') return "options.accumulation: TRSV with the dd accumulation runs a column per WebAssembly call, faster than the generated JavaScript where op(A)'s columns are contiguous but slower where its rows are (the same bits); this choice sees no layout, so it keeps the JavaScript";
  const ordered = orderedNumerics(numerics);
  const perRow = call.kernel === 'ellSpmv' ? 'ELL SpMV' : call.kernel === 'trsv' ? 'TRSV' : undefined;
  if (ordered && perRow) return `options.accumulation: ${perRow}'s ${ordered.accumulation} sums run a row per WebAssembly call, no faster than the generated JavaScript (the same bits), so the automatic choice keeps them there`;
  return ordered?.accumulation === 'dot2'
    ? 'options.accumulation: dot2 runs as fast in the generated JavaScript (the same bits), so the automatic choice keeps it there'
    : undefined;
}

/**
 * The CPU backend that runs `call` for the backend the caller named (`'cpu'`: automatic, `'wasm'` or `'js'`).
 * @throws {@link ModprecError} the refusal's typed error for `'wasm'` when WebAssembly cannot run the call
 */
export function chooseCpuBackend(requested: BackendName, call: CpuCall): 'wasm' | 'js' {
  if (requested === 'js') return 'js';
  // A policy that refused an earlier compilation sends automatic calls to JavaScript; backend 'wasm' then gets
  // the same CODE_GENERATION_BLOCKED as the first refusal (thrown where it compiles).
  if (requested === 'cpu' && (wasmCompilationBlocked() || automaticPrefersJs(call))) return 'js';
  const why = wasmRefusal(call);
  if (why === undefined) return 'wasm';
  if (requested === 'wasm') refuse('wasm', why);
  return 'js';
}
