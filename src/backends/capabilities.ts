/**
 * The capability table (format × kernel × backend), generated from the format registry and the backends'
 * `supports` answers — never written by hand. docs/gpu.md holds a copy between markers, which a test keeps equal.
 * @module
 */
import { range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import type { StorageFormat } from '../formats/common/format.js';
import { findFormat, formatNames } from '../formats/common/registry.js';
import { storageGpuFacts } from '../formats/common/gpu-facts.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { gpuBackend, isRnsArithmetic } from './webgpu-bridge/gpu-backend.js';
import { ELL_BINDING_LIMITS } from './webgpu-bridge/binding-limits.js';
import type { KernelName } from './backend.js';
import { wasmRefusal } from '../../kernels/shared/cpu-backend.js';
import { recursiveAccumulation } from '../../kernels/shared/accumulation.js';

/** Every kernel, in the order the table lists them. */
export const KERNELS: readonly KernelName[] = ['dot', 'gemv', 'trsv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'nrm2', 'asum'];

/**
 * The capability table as Markdown: for each registered format whether it is a storage (plain, and under a scaled
 * accessor's scales), a GPU output and an arithmetic on each backend — the CPU's WebAssembly (`backend: 'wasm'`)
 * in the last columns, from its own refusals (kernels/shared/cpu-backend.ts; scaled: one scale per operand) —, then which kernels each backend
 * runs (with f32 storage and arithmetic), then what ELL SpMV on the GPU refuses for an operand over one storage
 * binding, and why.
 * @returns three Markdown tables
 * @example
 * ```ts
 * console.log(capabilityTable());
 * ```
 */
export function capabilityTable(): string {
  const f32 = findFormat('f32')!;
  const f32Range = range(rowMajor<1>({ size: [1], storage: f32.storage! }));
  const f32Ar = f32.arithmetic as ArithmeticFormat;
  const yes = 'yes';
  const lines = [
    '| format | storage (cpu) | storage (gpu) | scaled storage (cpu) | scaled storage (gpu) | gpu output | arithmetic (cpu) | arithmetic (gpu) | storage (wasm) | scaled storage (wasm) | wasm output | arithmetic (wasm) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  // A storage runs on the GPU when some arithmetic reads it there: binary32, or its own format's (dd storage reads
  // only into dd arithmetic; RNS storage into RNS arithmetic).
  const runs = (x: ReturnType<typeof range>, own?: ArithmeticFormat): string => {
    const refused = (ar: ArithmeticFormat): boolean => gpuBackend.supports({ kernel: 'dot', operands: [['x', x]], arithmetic: ar }) !== undefined;
    return refused(f32Ar) && (!own || refused(own)) ? 'no' : yes;
  };
  for (const name of formatNames()) {
    const f = findFormat(name)!;
    const st = f.storage;
    const scaled = st ? scaledRange(st) : undefined;
    const storageGpu = st ? runs(range(rowMajor<1>({ size: [1], storage: st })), f.arithmetic as ArithmeticFormat | undefined) : '—';
    const scaledCpu = st ? (scaled ? yes : 'no') : '—';
    const scaledGpu = st ? (scaled ? runs(scaled) : 'no') : '—';
    // What a kernel writes on the device: a storage with a writable GPU part (a scaled range: through the CPU's scaled store).
    // (RNS outputs are written by the host from the device's exact results, as the CPU kernels write them.)
    const rnsOut = f.arithmetic !== undefined && isRnsArithmetic(f.arithmetic as ArithmeticFormat) && storageGpu === yes;
    const output = st ? (storageGpuFacts(st)?.writable || rnsOut ? yes : scaled && scaledGpu === yes ? 'scaled' : 'no') : '—';
    const arGpu = f.arithmetic ? (gpuBackend.supports({ kernel: 'dot', operands: [['x', f32Range]], arithmetic: f.arithmetic as ArithmeticFormat }) ? 'no' : yes) : '—';
    // WebAssembly: read by an fp64 DOT, written by an fp64 AXPY, computing a DOT of f32 storage.
    const f64Ar = findFormat('f64')!.arithmetic as ArithmeticFormat;
    const wasmRuns = (kernel: KernelName, r: ReturnType<typeof range>, use: 'read' | 'write', ar = f64Ar): string =>
      (wasmRefusal({ kernel, operands: [[use === 'read' ? 'x' : 'y', r, use]], arithmetic: ar, accumulation: recursiveAccumulation }) ? 'no' : yes);
    const plain = st ? range(rowMajor<1>({ size: [1], storage: st })) : undefined;
    const wasmStorage = plain ? wasmRuns('dot', plain, 'read') : '—';
    // WebAssembly reads one scale per operand (a scale per element is the JavaScript's).
    const oneScale = st ? scaledRange(st, false) : undefined;
    const wasmScaled = st ? (oneScale ? wasmRuns('dot', oneScale, 'read') : 'no') : '—';
    const wasmOutput = plain ? (wasmRuns('axpy', plain, 'write') === yes ? yes : oneScale && wasmRuns('axpy', oneScale, 'write') === yes ? 'scaled' : 'no') : '—';
    const arWasm = f.arithmetic ? wasmRuns('dot', f32Range, 'read', f.arithmetic as ArithmeticFormat) : '—';
    lines.push(`| ${name} | ${st ? yes : '—'} | ${storageGpu} | ${scaledCpu} | ${scaledGpu} | ${output} | ${f.arithmetic ? yes : '—'} | ${arGpu} | ${wasmStorage} | ${wasmScaled} | ${wasmOutput} | ${arWasm} |`);
  }
  lines.push('', '| kernel | cpu | gpu | wasm |', '| --- | --- | --- | --- |');
  for (const kernel of KERNELS) {
    const wasm = wasmRefusal({ kernel, operands: [['x', f32Range, 'read']], arithmetic: f32Ar, accumulation: recursiveAccumulation }) ? 'no' : yes;
    lines.push(`| ${kernel} | ${yes} | ${gpuBackend.supports({ kernel, operands: [['x', f32Range]], arithmetic: f32Ar }) ? 'no' : yes} | ${wasm} |`);
  }
  // What the GPU still refuses for an operand over one storage binding (BACKEND_LIMIT), with the reason.
  lines.push('', '| kernel | gpu: BACKEND_LIMIT when | why |', '| --- | --- | --- |');
  for (const c of ELL_BINDING_LIMITS) lines.push(`| ${c.kernel} | ${c.when} | ${c.reason} |`);
  return lines.join('\n');
}

/**
 * A one-element scaled range of storage `st` (a scale per element, or with `perElement` false one scale for the
 * vector), or undefined when a scaled accessor does not take it.
 */
function scaledRange(st: StorageFormat, perElement = true): ReturnType<typeof range> | undefined {
  if (st.kind !== 'number') return undefined;
  try {
    return range(scaledReducedRowMajor<1>({ size: [1], storage: st, scaleMask: [perElement] }));
  } catch {
    return undefined;
  }
}
