/**
 * `backend: 'gpu'` for the kernels: validated by the same code as the CPU (src/backends/webgpu-bridge/gpu-backend.ts), the
 * operands are uploaded as their STORED values (exactly, in their own storage format: the GPU reads them into
 * the arithmetic as the CPU does), the gpu.js-compiled WebGPU program runs, and the result is written back
 * through the output range. Where no adapter exists the CPU backend runs the same call. For data that stays on
 * the device between calls, use the resident API of `modprec/gpu` (toDevice, gpuDot, gpuGemv, …).
 * Loaded on a call's first use through ./gpu-dispatch.ts, so a CPU-only bundle does not carry it.
 * @module
 */
import type { Range } from '../../core/range.js';
import type { GpuRunInfo } from '../webgpu/kernel-common.js';
import type { DeviceArray } from '../webgpu/device-array.js';
import type { GpuDotResult } from '../../../kernels/dot/dot-webgpu.js';
import type { GpuAsumResult } from '../../../kernels/asum/asum-webgpu.js';
import type { GpuNrm2Result } from '../../../kernels/nrm2/nrm2-webgpu.js';
import type { EllOperand } from '../../../kernels/ell-spmv/ell-operand.js';
import { onGpuOrCpu, type GpuCall } from './gpu-backend.js';
import { storedValues } from './stored-values.js';
import { giveBack, lendSlot, takeSlot } from './upload-slots.js';
import { refillSpan, spanShapeKey } from '../webgpu/device-array.js';
import '../../formats/gpu-parts.js';
import { vector } from '../../core/vectors.js';
import { dd as ddFormat } from '../../formats/dd/register.js';
import type { DeviceMatrix } from '../../../kernels/gemv/gemv-webgpu.js';
import { trsvRounding, trsvStoresScaledInPlace } from '../../../kernels/trsv/trsv-webgpu.js';
import { refillEllIndices, type DeviceEll } from '../../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { nearestIntegerOfQuotient } from '../../formats/convert/scaled-integer.js';
import { codecWrites } from './codec-writes.js';


/** What a GPU run reports (the public name is gpu-dispatch.ts's GpuKernelReport). */
type GpuKernelReport = GpuRunInfo;

type Gpu = typeof import('../webgpu/api.js');

/** Built-in storage formats whose CPU bytes are the device words (dd: its interleaved pairs; dd-split: hi, then lo). */
const SAME_BYTES = new Set(['f64', 'f32', 'f16', 'bf16', 'dd', 'dd-split']);

/**
 * Whether an input range goes up as the bytes of its storage span: a built-in format whose CPU bytes are its device
 * words, or a part declaring `hostBytes` (a user's E5M2: checked by the upload, which names the operand).
 */
const spanInput = (r: Range<any, any>): boolean => !r.accessor.scale && (SAME_BYTES.has(r.accessor.storage.name) || r.accessor.storage.gpu?.hostBytes === true);

/** Checks a `hostBytes` declaration before an upload (`INVALID_FORMAT` naming `parameter` where it does not hold). */
async function checkHostBytes(r: Range<any, any>, parameter: string): Promise<void> {
  if (!SAME_BYTES.has(r.accessor.storage.name)) (await import('../webgpu/device-array.js')).bytesFormatOf(r, parameter);
}

/**
 * A packed interleaved dd copy of a dd-stored range (any layout, split or interleaved), 1-D in index order or
 * column-major for a matrix.
 */
function packedDd(r: Range<any, any>): Range<1, any> {
  const a = r.accessor;
  const n = a.size.reduce((p: number, q: number) => p * q, 1);
  const out = vector(n, { storage: ddFormat.storage as never, arithmetic: a.arithmetic as never });
  const d = out.accessor.data as Float64Array;
  const rows = a.size[0] as number;
  for (let k = 0; k < n; k++) {
    const idx = a.dimensionality === 1 ? [k] : [k % rows, Math.floor(k / rows)];
    const v = a.storage.decode(a.data as never, a.linearIndex(idx)) as { hi: number; lo: number };
    d[2 * k] = v.hi;
    d[2 * k + 1] = v.lo;
  }
  return out;
}

/**
 * Uploads a range's stored values in its own storage format (f64 as exact words). With `asView` (kernels that read
 * strided views: DOT, ASUM, the updates' inputs), a 1-D range in a built-in format goes up as the bytes of its
 * storage span and is read through its offset and stride on the device — no per-element work on the host.
 */
async function upload(g: Gpu, r: Range<any, any>, asView = false, parameter = 'x'): Promise<DeviceArray> {
  if (r.accessor.scale) {
    // A scaled range: its storage span and its own scales, read on the device as the CPU reads them (range-scale.ts).
    const { span, offset, strides } = await (await import('../webgpu/range-scale.js')).toDeviceScaledSpan(r as never, parameter);
    return g.deviceView(span, offset, r.length(), strides[0]!);
  }
  if (asView && r.dimensionality === 1 && spanInput(r)) {
    await checkHostBytes(r, parameter);
    return vectorSlot(r, parameter, () => g.toDevice(r as never, { strict: true, format: r.accessor.storage.name as 'f32' }));
  }
  // Double-double pairs go up as the bytes of a packed interleaved copy (numbers would drop lo).
  if (r.accessor.storage.kind === 'dd') return g.toDevice(packedDd(r) as never, { strict: true });
  return g.toDevice(storedValues(r), { format: r.accessor.storage.name as 'f64' | 'f32' | 'f16' | 'bf16', strict: true });
}

/**
 * An output. In a built-in format, or a user's whose part writes and declares hostBytes, it goes up as its storage
 * span, viewed (the kernels write only the view's elements; the rest of the span keeps its bits), whether or not its
 * old values are read. In another format, an
 * output whose old values are not read (β = 0) is allocated on the device rather than uploaded.
 */
async function outputOf(g: Gpu, r: Range<1, any>, readsOld: boolean, call: GpuCall, parameter: string): Promise<DeviceArray> {
  if (r.accessor.scale) {
    // A scaled output is computed into the arithmetic's own words (its old values read through its scales first,
    // on the device) and written back by the CPU's scaled write (writeBack): one rounding, as on the CPU.
    const words = scaledValuesFormat(call);
    if (!readsOld) return g.deviceZeros(r.length(), { format: words, strict: true });
    const old = await upload(g, r, true, parameter);
    try {
      if (words !== 'dd') return (await g.gpuConvert(old, words)).array;
      // dd: the old values as the kernels' dd reads take them (stored × scale, exact in the register), as pairs.
      const pairs = await g.deviceZeros(r.length(), { format: 'dd', strict: true });
      await g.gpuUpdate({ alpha: 1, x: old, beta: 0, out: pairs }, { arithmetic: call.arithmetic, strict: true });
      return pairs;
    } finally {
      old.destroy();
    }
  }
  if (SAME_BYTES.has(r.accessor.storage.name)) return vectorSlot(r, parameter, () => g.toDevice(r as never, { strict: true }));
  if (spanOutput(r)) {
    await checkHostBytes(r, parameter);
    return g.toDevice(r as never, { strict: true, format: r.accessor.storage.name as 'f32' });
  }
  return readsOld ? upload(g, r) : g.deviceZeros(r.length(), { format: r.accessor.storage.name as 'f64', strict: true });
}

/**
 * The format a scaled output's values are computed into before its scaled store: the arithmetic's own words for f32
 * and ff; for dd, whose register words are no storage format, the dd pair a dd output holds (the register rounded once
 * to the nearest pair, as every GPU dd result is written) — the CPU's scaled store then takes that pair as the dd
 * arithmetic's value (accessor.ts: nearestIntegerOfQuotient(hi, lo, s), or dd's quotient rounded to the storage).
 */
function scaledValuesFormat(call: GpuCall): 'f32' | 'ff' | 'dd' {
  const words = call.arithmetic.gpu!.words.name;
  return words === 'f32' || words === 'ff' ? words : 'dd';
}

/**
 * Whether an output in a user's format is written on the device into the view of its span and comes back as the span's
 * bytes: its GPU part writes (`writable`) and its words are its CPU bytes (`hostBytes`). Another writable part's words
 * come back decoded and the storage codec writes them (the values are exact for the storage: nothing rounds twice).
 */
const spanOutput = (r: Range<any, any>): boolean => {
  const part = r.accessor.storage.gpu;
  return !r.accessor.scale && part?.writable === true && part.hostBytes === true;
};

/**
 * Writes a device result back through its range. In a built-in format, or a user's format whose part writes and
 * declares hostBytes, the bytes of its storage span come back in one copy into the range's own typed array
 * (spanToRange). Otherwise the device holds it in the range's storage
 * format already, so the decoded values are exact for that storage and `set` (which converts through the range's
 * arithmetic) would round them again only where the arithmetic is narrower — so the storage codec writes them.
 */
async function writeBack(g: Gpu, r: Range<1, any>, d: DeviceArray, call: GpuCall, name?: string): Promise<void> {
  if (r.accessor.scale) return writeScaled(g, r, d, call, name);
  if (SAME_BYTES.has(r.accessor.storage.name) || spanOutput(r)) return g.spanToRange(d, r as never);
  const v = await d.toHost();
  const a = r.accessor;
  codecWrites(r, name, call.arithmetic, (i) => a.storage.encode(a.data as never, a.linearIndex([i]), v[i]! as never));
}

/**
 * Writes the arithmetic's values `d` (f32 words, ff pairs or dd pairs, exactly as the kernel left them) into a scaled range as
 * the CPU kernels' scaled stores do: integer storage keeps the exact value / scale rounded once to the nearest integer
 * (ties to even, nearestIntegerOfQuotient on the pair), floating-point storage the quotient in the arithmetic rounded
 * to the storage. Both on the device, any scales, for f32, ff and dd: dd pairs into integer storage by mpQuantizeDd
 * (quantize-dd-scale.ts), into floating-point storage by a replay of the CPU's ddDiv in binary64 steps
 * (formats/dd/dd-gpu-scaled-quotient.ts). The host loop below serves what the device passes do not take (host-resident
 * values where no adapter exists, a values view, a binding limit lowered below 64 elements' windows).
 */

async function writeScaled(g: Gpu, r: Range<1, any>, d: DeviceArray, call: GpuCall, name?: string): Promise<void> {
  // Integer storage: the same rounding, on the device (src/backends/webgpu/scaled-store.ts).
  const store = await import('../webgpu/scaled-store.js');
  if (d.onDevice && (d.format.wordsPerElement <= 2 || d.format.name === 'dd') && store.storesOnDevice(r as never) && store.fitsStoreWindows(r as never, d)) return store.deviceScaledStore(r as never, d);
  // Floating-point storage: the arithmetic's quotients on the device (scaled-float-store.ts), then the update 1·q
  // rounds them to the storage into the range's view of its span, as an unscaled output is written.
  const floats = await import('../webgpu/scaled-float-store.js');
  if (floats.quotientsOnDevice(r as never, d, call.arithmetic.gpu!.name)) return floatScaledStore(g, r, await floats.deviceScaledQuotients(r as never, d), call);
  const words = (await d.encoded()).words;
  const f = new Float32Array(words.buffer, words.byteOffset, words.length);
  // dd values are pairs of doubles (four words each); f32 words and ff pairs are binary32.
  const pairs = d.format.name === 'dd' ? new Float64Array(words.buffer, words.byteOffset, 2 * r.length()) : undefined;
  const c = d.format.wordsPerElement;
  const a = r.accessor;
  const st = a.storage;
  const ar = call.arithmetic;
  codecWrites(r, name, call.arithmetic, (i) => {
    const hi = pairs ? pairs[2 * i]! : f[i * c]!, lo = pairs ? pairs[2 * i + 1]! : c === 2 ? f[i * c + 1]! : 0;
    const s = a.scale!.data[a.scaleIndex([i])]!;
    if (st.isInteger) st.encode(a.data as never, a.linearIndex([i]), nearestIntegerOfQuotient(hi, lo, s) as never);
    // dd arithmetic's div is the CPU kernels' guarded division (formats/dd/guarded.ts).
    else st.encode(a.data as never, a.linearIndex([i]), ar.toKind(st.kind, ar.div(ar.fromKind('dd', { hi, lo }), ar.fromNumber(s)), st.significandBits) as never);
  });
}

/** Writes the quotients `q` (value / scale in the arithmetic, one per element of `r`) into the scaled range `r`'s storage. */
async function floatScaledStore(g: Gpu, r: Range<1, any>, q: DeviceArray, call: GpuCall): Promise<void> {
  try {
    // The same view of the same storage, unscaled: its stored values are what the update writes.
    const a = r.accessor;
    const unscaled = { accessor: Object.assign(Object.create(Object.getPrototypeOf(a)) as object, a, { scale: undefined }) } as Range<1, any>;
    const out = await g.toDevice(unscaled as never, { strict: true });
    try {
      await g.gpuUpdate({ alpha: 1, x: q, beta: 0, out }, { arithmetic: call.arithmetic, strict: true });
      await g.spanToRange(out, unscaled as never);
    } finally {
      out.destroy();
    }
  } finally {
    q.destroy();
  }
}

/** A matrix operand: a scaled range with its scales, a built-in format as its storage span (any layout), else packed. */
async function matrixOf(g: Gpu, A: Range<2, any>, parameter: string): Promise<DeviceMatrix> {
  const rows = A.length(0), cols = A.length(1);
  if (A.accessor.scale) {
    const { span, offset, strides } = await (await import('../webgpu/range-scale.js')).toDeviceScaledSpan(A as never, parameter);
    return g.deviceMatrixView(span, { rows, cols, offset, rowStride: strides[0]!, colStride: strides[1]! });
  }
  if (spanInput(A)) {
    await checkHostBytes(A, parameter);
    const shape = spanShapeKey(A);
    const key = shape === undefined ? undefined : `${parameter}|${shape}`;
    const kept = key === undefined ? undefined : takeSlot<DeviceMatrix>(key);
    if (kept) {
      refillSpan(kept.data, A as never);
      return kept;
    }
    const M = await g.toDeviceMatrix(A as never, { strict: true });
    return key === undefined || !M.data.onDevice ? M : lendSlot(key, M, M.data, 4 * M.data.words, () => M.data.destroy(), () => M.data.buffer !== undefined);
  }
  return g.deviceMatrix(await upload(g, A), rows, cols, Math.max(1, rows));
}

/**
 * The upload of a 1-D range as its storage span: an earlier one for the same parameter with the same span shape
 * refilled (./upload-slots.ts), else `make`'s, lent so that {@link free} keeps it for the next call. The parameter is
 * part of the key so that x and y of one shape keep their own arrays (the kernels' plans are keyed by the arrays).
 */
async function vectorSlot(r: Range<1, any>, parameter: string, make: () => Promise<DeviceArray>): Promise<DeviceArray> {
  const shape = spanShapeKey(r);
  const key = shape === undefined ? undefined : `${parameter}|${shape}`;
  const kept = key === undefined ? undefined : takeSlot<DeviceArray>(key);
  if (kept) {
    refillSpan(kept, r as never);
    return kept;
  }
  const d = await make();
  return key === undefined || !d.onDevice ? d : lendSlot(key, d, d, 4 * d.words, () => d.destroy(), () => d.buffer !== undefined);
}

/** Ends a call's use of its uploads: kept for the next call where they are slots, destroyed otherwise. */
function free(...arrays: DeviceArray[]): void {
  for (const a of arrays) giveBack(a, () => a.destroy());
}

const rns = (): Promise<typeof import('./rns-dispatch.js')> => import('./rns-dispatch.js');

/** DOT on the GPU (or the CPU backend, `cpu`, where no adapter exists). */
export function dotOnGpu(x: Range<1, any>, y: Range<1, any>, call: GpuCall, cpu: () => number, into?: Range<1, any>): Promise<GpuDotResult> {
  if (call.rns) return rns().then((r) => r.rnsDotOnGpu(x, y, call, cpu, into));
  return onGpuOrCpu<GpuDotResult>(call, async (g, report) => {
    if (x.length() === 0) {
      if (into) writePair(into, 0, 0, call);
      return { ...report, value: 0 };
    }
    const dx = await upload(g, x, true, 'x');
    const dy = await upload(g, y, true, 'y');
    try {
      if (!into) return await g.gpuDot(dx, dy, { arithmetic: call.arithmetic, strict: true });
      // The result in full arithmetic precision: the pair (or word) the last pass left, read back for the value.
      const { result, info } = await g.gpuDotResident(dx, dy, { arithmetic: call.arithmetic, strict: true });
      try {
        const words = (await result.encoded()).words;
        // The arithmetic's word layout says how its value reads as a pair (ff: its two words; dd: the pair nearest).
        const layout = call.arithmetic.gpu!.words;
        const [hi, lo] = layout.decodePair ? layout.decodePair(words) : [layout.decode({ words }, 1, 1)[0]!, 0];
        await writeInto(g, into, result, hi, lo, call);
        return { ...info, value: lo === 0 ? hi : hi + lo };
      } finally {
        result.destroy();
      }
    } finally {
      free(dx, dy);
    }
  }, () => ({ value: cpu() }));
}

/**
 * DOT's `into`, rounded once from the result as the CPU's into write: on the device where its storage has a GPU part
 * that writes (the result's words pass through an update 1·r, which writes the output format: f64, f32, f16, bf16, a
 * user's writable part; a view of its span), or through the scaled store for a scaled range (as every scaled output);
 * otherwise (double-double, a read-only part) by the storage codec from the pair.
 */
async function writeInto(g: Gpu, into: Range<1, any>, result: DeviceArray, hi: number, lo: number, call: GpuCall): Promise<void> {
  const part = into.accessor.storage.gpu;
  if (!into.accessor.scale && !(part?.writable)) return writePair(into, hi, lo, call);
  const out = await outputOf(g, into, false, call, 'options.into');
  try {
    await g.gpuUpdate({ alpha: 1, x: result, beta: 0, out }, { arithmetic: call.arithmetic, strict: true });
    await writeBack(g, into, out, call, 'options.into');
  } finally {
    out.destroy();
  }
}

/**
 * Writes the float-float value hi + lo into `into`'s storage, rounded once (as the CPU kernel's `into` write). A
 * user's storage that refuses it is INVALID_VALUE naming `options.into[0]`, its error as `cause`, as on the CPU.
 */
function writePair(into: Range<1, any>, hi: number, lo: number, call: GpuCall): void {
  const a = into.accessor;
  const st = a.storage;
  codecWrites(into, 'options.into', call.arithmetic, () => a.storage.encode(a.data as never, a.linearIndex([0]), call.arithmetic.toKind(st.kind, call.arithmetic.fromKind('dd', { hi, lo }), st.significandBits) as never));
}

/**
 * y := β·y on the device without reading A or x (α = 0, or an empty product), as the CPU kernels do: β = 0
 * writes zeros without reading y.
 */
async function scaleOutput(g: Gpu, y: Range<1, any>, beta: number, call: GpuCall): Promise<void> {
  if (beta === 1) return;
  const dy = await outputOf(g, y, beta !== 0, call, 'y');
  try {
    await g.gpuUpdate({ alpha: beta, x: dy, beta: 0, out: dy }, { arithmetic: call.arithmetic, strict: true });
    await writeBack(g, y, dy, call, 'y');
  } finally {
    free(dy);
  }
}

/**
 * GEMV on the GPU: y := α·op(A)·x + β·y, with the CPU kernel's quick returns (an empty op(A), or α = 0 and
 * β = 1, leave y untouched; α = 0 does not read A or x).
 */
export function gemvOnGpu(args: { alpha: number; A: Range<2, any>; x: Range<1, any>; beta: number; y: Range<1, any>; trans: 'N' | 'T'; m: number; n: number }, call: GpuCall, cpu: () => void): Promise<GpuKernelReport> {
  if (call.rns) return rns().then((r) => r.rnsGemvOnGpu(args, call, cpu));
  return onGpuOrCpu<GpuKernelReport>(call, async (g, report) => {
    if (args.m === 0 || args.n === 0 || (args.alpha === 0 && args.beta === 1)) return report;
    if (args.alpha === 0) {
      await scaleOutput(g, args.y, args.beta, call);
      return report;
    }
    // A in a built-in format goes up as its storage span, read through its strides (any layout, sub-ranges).
    const A = await matrixOf(g, args.A, 'A');
    const dA = A.data;
    const dx = await upload(g, args.x, true, 'x');
    const dy = await outputOf(g, args.y, args.beta !== 0, call, 'y');
    try {
      const info = await g.gpuGemv({ A, x: dx, y: dy, alpha: args.alpha, beta: args.beta, trans: args.trans },
        { arithmetic: call.arithmetic, strict: true });
      await writeBack(g, args.y, dy, call, 'y');
      return info;
    } finally {
      free(dA, dx, dy);
    }
  }, () => { cpu(); return {}; });
}

/**
 * For an x in a scaled integer storage that the device rounds into (i8, i16 with finite non-zero fp64 scales), or in a
 * scaled f16 or bf16 (`float`): its scales per element and largest integer, so the solve rounds each x_j to it before
 * later rows read it, as the CPU's substitution does (the CPU stores x_j and reads it back: a saturated or rounded x_j
 * is what later rows see).
 */
async function storeRounding(x: Range<1, any>): Promise<{ scales: Float64Array; qtop: number; float?: 'f16' | 'bf16' } | undefined> {
  const a = x.accessor;
  if (!a.scale) return undefined;
  // A scaled f16/bf16 x: the CPU's quotient in the arithmetic rounded to the storage between rows (its final scaled
  // float store then gives the same stored values back: nothing rounds twice).
  const float = a.storage.name === 'f16' || a.storage.name === 'bf16' ? a.storage.name : undefined;
  if (!float && !(a.storage.isInteger && (await import('../webgpu/scaled-store.js')).storesOnDevice(x as never))) return undefined;
  // A zero or non-finite scale leaves x unrounded until the final store.
  for (const s of a.scale.data) if (!(Number.isFinite(s) && s !== 0)) return undefined;
  const n = x.length();
  const scales = Float64Array.from({ length: n }, (_, i) => a.scale!.data[a.scaleIndex([i])]!);
  return float ? { scales, qtop: 0, float } : { scales, qtop: a.storage.name === 'i8' ? 127 : 32767 };
}

/** TRSV on the GPU: x := op(A)⁻¹·x (an empty system returns at once). */
export function trsvOnGpu(args: { A: Range<2, any>; x: Range<1, any>; uplo: 'U' | 'L'; trans: 'N' | 'T'; diag: 'N' | 'U'; blockSize: number }, call: GpuCall, cpu: () => void): Promise<GpuKernelReport> {
  if (call.rns) return rns().then((r) => r.rnsTrsvOnGpu(args, call, cpu));
  return onGpuOrCpu<GpuKernelReport>(call, async (g, report) => {
    const n = args.A.length(0);
    if (n === 0) return report;
    // A and x in a built-in format go up as their storage spans, read (and x written) through their strides.
    const A = await matrixOf(g, args.A, 'A');
    const dA = A.data;
    const options = { arithmetic: call.arithmetic, strict: true, blockSize: args.blockSize };
    const solve = { A, uplo: args.uplo, trans: args.trans, diag: args.diag };
    try {
      const rounding = await storeRounding(args.x);
      if (rounding && !rounding.float && scaledValuesFormat(call) !== 'dd') {
        // A scaled integer x is solved in place: b read through its span and scales, the solution stored into the span
        // by the scaled store, whose bytes come back in one copy (no packed copy in the arithmetic's words).
        const span = await upload(g, args.x, true, 'x');
        try {
          if (trsvStoresScaledInPlace(span)) {
            const info = await trsvRounding({ ...solve, x: span }, options, rounding);
            await (await import('../webgpu/scaled-store.js')).scaledSpanToRange(args.x as never, span, span.buffer!);
            return info;
          }
        } finally {
          span.destroy();
        }
      }
      const dx = await outputOf(g, args.x, true, call, 'x');
      try {
        const info = rounding
          ? await trsvRounding({ ...solve, x: dx }, options, rounding)
          : await g.gpuTrsv({ ...solve, x: dx }, options);
        await writeBack(g, args.x, dx, call, 'x');
        return info;
      } finally {
        free(dx);
      }
    } finally {
      free(dA);
    }
  }, () => { cpu(); return {}; });
}

/** The stored values of an ELL operand in a format without a device view, packed at stride (padding 0). */
function packedEllValues(A: EllOperand): Float64Array {
  const { width, stride, colIndex } = A.structure;
  const vr = A.values.length(0);
  const packed = storedValues(A.values, (i, k) => colIndex[i + k * stride]! >= 0);
  const flat = new Float64Array(stride * width);
  for (let k = 0; k < width; k++) for (let i = 0; i < vr; i++) flat[i + k * stride] = packed[i + k * vr]!;
  return flat;
}

/**
 * The device ELL matrix of an operand whose values go up as their storage span: an earlier call's of the same shape
 * (rows, cols, width, stride, values span) with its values and column indices rewritten (./upload-slots.ts), else a
 * new one, lent so that the call's end keeps it — its plans and bind groups then serve the next call.
 */
async function ellSlot(g: Gpu, A: EllOperand): Promise<DeviceEll> {
  const { rows, cols, width, stride, colIndex } = A.structure;
  const shape = A.values.accessor.scale ? undefined : spanShapeKey(A.values);
  const key = shape === undefined ? undefined : `A.ell|${rows}|${cols}|${width}|${stride}|${shape}`;
  const kept = key === undefined ? undefined : takeSlot<DeviceEll>(key);
  if (kept) {
    try {
      refillEllIndices(kept, A.structure);
    } catch (e) {
      free(kept.values);
      throw e;
    }
    refillSpan(kept.values, A.values as never);
    return kept;
  }
  const dA = await g.deviceEllView({ rows, cols, width, stride, colIndex }, await matrixOf(g, A.values, 'A.values'));
  const destroy = (): void => { dA.values.destroy(); dA.colIndex?.destroy(); };
  // Lent under the matrix's key: the values array, its owner, is no longer a slot of its own.
  return key === undefined || !dA.values.onDevice ? dA : lendSlot(key, dA, dA.values, 4 * (dA.values.words + stride * width), destroy, () => dA.values.buffer !== undefined);
}

/**
 * ELL SpMV on the GPU: y := α·A·x + β·y, with the CPU kernel's quick returns (no rows, or α = 0 and β = 1) and
 * y := β·y without reading A or x when α = 0 or A has no columns or slots.
 */
export function ellSpmvOnGpu(args: { alpha: number; A: EllOperand; x: Range<1, any>; beta: number; y: Range<1, any> }, call: GpuCall, cpu: () => void): Promise<GpuKernelReport> {
  if (call.rns) return rns().then((r) => r.rnsEllSpmvOnGpu(args, call, cpu));
  return onGpuOrCpu<GpuKernelReport>(call, async (g, report) => {
    const { rows, cols, width, stride, colIndex } = args.A.structure;
    if (rows === 0 || (args.alpha === 0 && args.beta === 1)) return report;
    if (args.alpha === 0 || cols === 0 || width === 0) {
      await scaleOutput(g, args.y, args.beta, call);
      return report;
    }
    // Values in a built-in format go up as their storage span, read through their strides (padding slots are never
    // read); in another format as their stored values, exactly, padding uploaded as 0.
    const values = args.A.values;
    const dA = spanInput(values) || values.accessor.scale
      ? await ellSlot(g, args.A)
      : await g.toDeviceEll({ rows, cols, width, stride, colIndex, values: packedEllValues(args.A) }, { format: values.accessor.storage.name as 'f64', strict: true });
    const dx = await upload(g, args.x, true, 'x');
    const dy = await outputOf(g, args.y, args.beta !== 0, call, 'y');
    try {
      const info = await g.gpuEllSpmv({ A: dA, x: dx, y: dy, alpha: args.alpha, beta: args.beta }, { arithmetic: call.arithmetic, strict: true });
      await writeBack(g, args.y, dy, call, 'y');
      return info;
    } finally {
      // A matrix that is not kept goes with its column indices.
      giveBack(dA.values, () => { dA.values.destroy(); dA.colIndex?.destroy(); });
      free(dx, dy);
    }
  }, () => { cpu(); return {}; });
}

/**
 * out := α·x + β·y elementwise on the GPU (AXPY: out = y, β = 1; WAXPBY: out = w; SCAL: out = x, β = 0). A zero
 * coefficient means its vector is not read. Callers handle their kernel's quick returns first. `outName`: the output's
 * public name (`y`, `w`, `x`), named with its element where a user's storage refuses a value.
 */
export function updateOnGpu(args: { alpha: number; x: Range<1, any>; beta: number; y?: Range<1, any>; out: Range<1, any>; outName?: string }, call: GpuCall, cpu: () => void): Promise<GpuKernelReport> {
  if (call.rns) return rns().then((r) => r.rnsUpdateOnGpu(args, call, cpu));
  return onGpuOrCpu<GpuKernelReport>(call, async (g, report) => {
    if (args.out.length() === 0) return report;
    const dx = args.alpha !== 0 ? await upload(g, args.x, true, 'x') : undefined;
    const dy = args.y && args.beta !== 0 ? await upload(g, args.y, true, 'y') : undefined;
    const dOut = await outputOf(g, args.out, false, call, 'out');
    try {
      const info = await g.gpuUpdate({ alpha: args.alpha, x: dx, beta: args.beta, y: dy, out: dOut }, { arithmetic: call.arithmetic, strict: true });
      await writeBack(g, args.out, dOut, call, args.outName);
      return info;
    } finally {
      free(dOut, ...(dx ? [dx] : []), ...(dy ? [dy] : []));
    }
  }, () => { cpu(); return {}; });
}

/** ASUM on the GPU (or the CPU backend, `cpu`, where no adapter exists). */
export function asumOnGpu(x: Range<1, any>, call: GpuCall, cpu: () => number): Promise<GpuAsumResult> {
  if (call.rns) return rns().then((r) => r.rnsNormOnGpu('asum', x, call, cpu));
  return onGpuOrCpu<GpuAsumResult>(call, async (g, report) => {
    if (x.length() === 0) return { ...report, value: 0 };
    const dx = await upload(g, x, true);
    try {
      return await g.gpuAsum(dx, { arithmetic: call.arithmetic, strict: true });
    } finally {
      free(dx);
    }
  }, () => ({ value: cpu() }));
}

/** NRM2 on the GPU (or the CPU backend, `cpu`, where no adapter exists). */
export function nrm2OnGpu(x: Range<1, any>, call: GpuCall, cpu: () => number): Promise<GpuNrm2Result> {
  if (call.rns) return rns().then((r) => r.rnsNormOnGpu('nrm2', x, call, cpu));
  return onGpuOrCpu<GpuNrm2Result>(call, async (g, report) => {
    if (x.length() === 0) return { ...report, value: 0 };
    const dx = await upload(g, x, true);
    try {
      return await g.gpuNrm2(dx, { arithmetic: call.arithmetic, strict: true });
    } finally {
      free(dx);
    }
  }, () => ({ value: cpu() }));
}
