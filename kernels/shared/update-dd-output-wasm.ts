/**
 * The element-wise updates (AXPY, WAXPBY, SCAL) in WebAssembly SIMD where the output is double-double (interleaved
 * `dd` or split `dd-split`) or the arithmetic is double-double — each element with the JavaScript kernels' operations
 * in their order, so the JavaScript's bits:
 * - fp64 or fp32 arithmetic: the update of update-wasm.ts into an fp64 staging area, each result r then stored as
 *   the JavaScript kernels store a number into double-double storage: (r, 0), a zero as (r, r) (dd-storage.ts);
 * - double-double arithmetic (`dd`): the templates of src/formats/dd/dd-templates.ts lane by lane, f64x2 of high
 *   parts and of low parts — α·x as `ddMul` (Dekker's product, the cross terms, FastTwoSum), β·y + t as
 *   `ddMulAccumulate` (wasm-dd-steps.ts, always with Dekker's splitting: the relaxed-SIMD product would differ
 *   where the product's error underflows), the signed-zero repair of the templates' `finish`; stored as the
 *   JavaScript stores the pair: into dd (hi, lo) with a zero's lo signed as hi, into fp64 hi − (0 − lo), into fp32
 *   through round-to-odd. Where a result is not finite the templates take their slow, rescaled path: the JavaScript
 *   kernel then recomputes that chunk from the operands, which the chunk has not yet touched.
 * - any arithmetic into a scaled, fp16, bf16 or integer output: the same staging, each result (a number, or
 *   double-double arithmetic's pair) stored by the JavaScript kernels' own store (store-numbers-cpu.ts): in double-double
 *   the pair divided by the scale as a pair, a scaled integer rounded once from the exact quotient, saturating.
 * Every operand is staged (dd-split interleaved into the staging area); the output's chunk is written back in JavaScript.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop, type WasmOperand } from '../../src/backends/wasm/wasm-function.js';
import { ddAccumulateStep, ddPairHalf, ddStepScratch, ddStepSetup, type DdStepScratch } from '../../src/backends/wasm/wasm-dd-steps.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, stageVector, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { roundPairToOdd } from '../../src/formats/convert/round-to-odd.js';
import { updateChunk, wasmUpdate, type UpdateForm } from './update-wasm.js';
import { isDdOutput, type wasmNumericsOf } from './cpu-backend.js';
import { plainOutput } from '../gemv/combine-sums-cpu.js';
import { storeNumbers } from './store-numbers-cpu.js';
import { findFormat } from '../../src/formats/common/registry.js';

/** Staging: x, y and the output, CHUNK elements of 16 bytes each. */
const X_AT = 64, Y_AT = X_AT + CHUNK * 16, OUT_AT = Y_AT + CHUNK * 16;
const [F64X2_EQ] = [0x47];

/** The reader of an operand as staged: dd-split is staged interleaved, so it reads as dd. */
function stagedStorage(a: Accessor<1, any>): WasmStorage {
  return a.data instanceof DdSplitArray ? wasmStorageNamed('dd')! : wasmStorageOf(a) as WasmStorage;
}

/** Copies elements [from, from + count) of a vector to `address`, zero-padded to `padTo` (dd-split interleaved). */
function stage(a: Accessor<1, any>, from: number, count: number, address: number, padTo: number, buffer: ArrayBuffer): void {
  if (!(a.data instanceof DdSplitArray)) { stageVector(a, from, count, address, padTo, buffer); return; }
  const view = new Float64Array(buffer, address, 2 * padTo).fill(0);
  const { hi, lo } = a.data, stride = a.strides[0] as number;
  for (let k = 0, p = a.offset + from * stride; k < count; k++, p += stride) { view[2 * k] = hi[p]!; view[2 * k + 1] = lo[p]!; }
}

/** Writes `count` staged results back to elements [from, from + count) of `out`, as the JavaScript kernels store them. */
function unstage(out: Accessor<1, any>, from: number, count: number, buffer: ArrayBuffer, pairs: boolean, lanes: 'f64' | 'f32'): void {
  const v = new Float64Array(buffer, OUT_AT, pairs ? 2 * count : count), stride = out.strides[0] as number;
  // Scaled, fp16, bf16 or integer storage: the JavaScript kernels' store of a number (fp64, fp32 arithmetic) or of a
  // pair (double-double arithmetic: divided by the scale in double-double, rounded to the storage).
  if (!isDdOutput(out) && !plainOutput(out)) { storeNumbers(out, from, count, v, findFormat(pairs ? 'dd' : lanes)!.arithmetic!); return; }
  const split = out.data instanceof DdSplitArray ? out.data : undefined;
  const data = out.data as Float64Array | Float32Array;
  const name = out.storage.name;
  for (let k = 0, p = out.offset + from * stride; k < count; k++, p += stride) {
    // A number r is stored as (r, 0), a pair as it is; a zero's low part takes hi's sign (dd-storage.ts's emitWrite).
    const hi = pairs ? v[2 * k]! : v[k]!, raw = pairs ? v[2 * k + 1]! : 0, lo = hi === 0 ? hi : raw;
    if (split) { split.hi[p] = hi; split.lo[p] = lo; }
    else if (name === 'dd') { data[2 * p] = hi; data[2 * p + 1] = lo; }
    // A double-double result into fp64 or fp32 storage: the dd arithmetic's export (dd-arithmetic.ts).
    else data[p] = name === 'f32' ? roundPairToOdd(hi, raw) : hi - (0 - raw);
  }
}

/** (px, scale x, py, scale y, padded count, α, β, pout): update-wasm.ts's calling convention. */
type DdUpdateChunk = (px: number, sx: number, py: number, sy: number, n: number, alpha: number, beta: number, out: number) => void;

/** Instructions: (vh, vl) := the f64x2 pair of element pair k of an operand (dd: its parts; else (value, 0)). */
function readPair(o: WasmOperand, k: number, vh: number, vl: number, zero: number): number[] {
  return o.storage.name === 'dd'
    ? [...ddPairHalf(o.pointer, 32 * k, false), ...op.set(vh), ...ddPairHalf(o.pointer, 32 * k, true), ...op.set(vl)]
    : [...load2(o, k), ...op.set(vh), ...op.get(zero), ...op.set(vl)];
}

/** Instructions: hi := fp64 where hi = 0 and fp64 = 0 (the templates' signed-zero repair: `finish` in dd-templates.ts). */
function signedZero(hi: number, fp64: number, zero: number): number[] {
  return [
    ...op.get(fp64), ...op.get(hi),
    ...op.get(hi), ...op.get(zero), ...op.simd(F64X2_EQ), ...op.get(fp64), ...op.get(zero), ...op.simd(F64X2_EQ), ...op.simd(SIMD.and),
    ...op.simd(SIMD.bitselect), ...op.set(hi),
  ];
}

/** Instructions: (th, tl) := (ah, al)·(bh, bl) by `ddMulSource` (Dekker's product, cross terms, FastTwoSum, finish). */
function ddMulLanes(s: DdStepScratch, ah: number, al: number, bh: number, bl: number, th: number, tl: number, zero: number): number[] {
  const f = (code: number): number[] => op.simd(code);
  const { p, e, t, h, z, w, split } = s;
  const veltkamp = (v: number, v1: number, v2: number): number[] => [
    ...op.get(split), ...op.get(v), ...f(SIMD.f64x2Mul), ...op.tee(v1),
    ...op.get(v1), ...op.get(v), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...op.set(v1),
    ...op.get(v), ...op.get(v1), ...f(SIMD.f64x2Sub), ...op.set(v2),
  ];
  return [
    ...op.get(ah), ...op.get(bh), ...f(SIMD.f64x2Mul), ...op.set(p),
    ...veltkamp(ah, t, h), ...veltkamp(bh, z, w),
    // e = (((a1·b1 − p) + a1·b2) + a2·b1) + a2·b2; c = e + (ah·bl + al·bh)
    ...op.get(t), ...op.get(z), ...f(SIMD.f64x2Mul), ...op.get(p), ...f(SIMD.f64x2Sub),
    ...op.get(t), ...op.get(w), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ...op.get(h), ...op.get(z), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ...op.get(h), ...op.get(w), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ...op.get(ah), ...op.get(bl), ...f(SIMD.f64x2Mul), ...op.get(al), ...op.get(bh), ...f(SIMD.f64x2Mul), ...f(SIMD.f64x2Add),
    ...f(SIMD.f64x2Add), ...op.set(e),
    // FastTwoSum(p, c): rh = p + c; rl = c − (rh − p)
    ...op.get(p), ...op.get(e), ...f(SIMD.f64x2Add), ...op.set(th),
    ...op.get(e), ...op.get(th), ...op.get(p), ...f(SIMD.f64x2Sub), ...f(SIMD.f64x2Sub), ...op.set(tl),
    ...signedZero(th, p, zero),
  ];
}

/**
 * Instructions: (vh, vl) := (vh, vl)·(s, 0) by `ddMulSource`, all of it — as double-double arithmetic reads an element
 * with one scale (src/backends/cpu/operand.ts, emitLoad: the pair (v, 0), or dd storage's own pair, times the scale
 * converted to (s, 0)). Unlike the sums' read (wasm-dd-steps.ts, ddScaledRead), the repair of a zero high part's sign
 * stays in: an update stores every element, and a zero's sign reaches the output ((−0)·s is −0 for s > 0). The cross
 * term vh·0 stays too, as the template has it, though for a finite vh it changes nothing: Dekker's error e is never
 * −0 (its first term a₁b₁ − p is +0 or non-zero, and an exact zero sum is +0), so e + (vh·0 + vl·s) is e's value
 * whenever vl·s is a zero. A non-finite pair (an element or a product beyond the splitting range, which
 * the template's guard repairs) makes the result non-finite: the chunk then goes to the JavaScript kernel.
 */
function scaledReadLanes(s: DdStepScratch, vh: number, vl: number, scale: number, zero: number): number[] {
  return ddMulLanes(s, vh, vl, scale, zero, vh, vl, zero);
}

/**
 * The compiled double-double update of a chunk (operands staged: dd pairs or exact doubles; the output staged as
 * pairs); `scaledX`/`scaledY`: the operand has one scale (its scale parameter), read as {@link scaledReadLanes}.
 */
function ddUpdateChunk(form: UpdateForm, sx: WasmStorage | null, sy: WasmStorage | null, scaledX: boolean, scaledY: boolean): DdUpdateChunk {
  const name = (st: WasmStorage | null, scaled: boolean): string => (st ? st.name + (scaled ? '*s' : '') : '-');
  return wasmExports(`update-dd ${form} ${name(sx, scaledX)} ${name(sy, scaledY)}`, 'a double-double element-wise update kernel', () => {
    const l = new WasmLocals();
    const f64 = wasmStorageNamed('f64')!, dd = wasmStorageNamed('dd')!;
    const px = operandParams(l, sx ?? f64), py = operandParams(l, sy ?? f64);
    const n = l.param(I32), alpha = l.param(F64), beta = l.param(F64), pout = l.param(I32);
    const i = l.local(I32);
    const [a, b, zero, xh, xl, yh, yl, th, tl] = Array.from({ length: 9 }, () => l.local(V128)) as [number, number, number, number, number, number, number, number, number];
    const ox = sx ? operandLocals(l, px, false) : null, oy = sy ? operandLocals(l, py, false) : null;
    // Dekker's product always: the JavaScript templates' (relaxed SIMD's fused product differs where its error underflows).
    const s: DdStepScratch = { ...ddStepScratch(l), fma: false };
    // A scaled operand's scale as an f64x2 splat (set before the loop), or none.
    const xs = sx && scaledX ? l.local(V128) : -1, ys = sy && scaledY ? l.local(V128) : -1;
    const readX = (k: number): number[] => [...readPair(ox!, k, xh, xl, zero), ...(xs >= 0 ? scaledReadLanes(s, xh, xl, xs, zero) : [])];
    const readY = (k: number): number[] => [...readPair(oy!, k, yh, yl, zero), ...(ys >= 0 ? scaledReadLanes(s, yh, yl, ys, zero) : [])];
    // β·y + t by ddMulAccumulate (β read as the pair (β, 0)), then the templates' signed-zero repair against h.
    const addBy = (k: number): number[] => [
      ...readY(k),
      ...ddAccumulateStep(s, { a: b, b: yh, low: { a: zero, b: yl }, hi: th, lo: tl }),
      ...signedZero(th, s.h, zero),
    ];
    const value = (k: number): number[] => {
      switch (form) {
        case 'ax+y': return [
          ...readX(k), ...readY(k),
          ...ddAccumulateStep(s, { a, b: xh, low: { a: zero, b: xl }, hi: yh, lo: yl, into: { hi: th, lo: tl } }),
          ...signedZero(th, s.h, zero),
        ];
        case 'ax+by': return [...readX(k), ...ddMulLanes(s, a, zero, xh, xl, th, tl, zero), ...addBy(k)];
        case 'ax': return [...readX(k), ...ddMulLanes(s, a, zero, xh, xl, th, tl, zero)];
        case 'by+0': return [...op.get(zero), ...op.set(th), ...op.get(zero), ...op.set(tl), ...addBy(k)];
        case '0': return [...op.get(zero), ...op.set(th), ...op.get(zero), ...op.set(tl)];
      }
    };
    // The pair k of the step stored interleaved: (th₀, tl₀), (th₁, tl₁).
    const store = (k: number): number[] => [
      ...op.get(pout), ...op.get(th), ...op.get(tl), ...op.simd(0x0d /* i8x16.shuffle */, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23), ...op.simdMem(SIMD.store, 0, 32 * k),
      ...op.get(pout), ...op.get(th), ...op.get(tl), ...op.simd(0x0d, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31), ...op.simdMem(SIMD.store, 0, 32 * k + 16),
    ];
    const body = [
      ...op.get(alpha), ...op.simd(SIMD.f64x2Splat), ...op.set(a),
      ...op.get(beta), ...op.simd(SIMD.f64x2Splat), ...op.set(b),
      ...op.f64(0), ...op.simd(SIMD.f64x2Splat), ...op.set(zero),
      ...ddStepSetup(s),
      ...(xs >= 0 ? [...op.get(px.scaleParam), ...op.simd(SIMD.f64x2Splat), ...op.set(xs)] : []),
      ...(ys >= 0 ? [...op.get(py.scaleParam), ...op.simd(SIMD.f64x2Splat), ...op.set(ys)] : []),
      ...(ox ? operandSetup(ox) : []), ...(oy ? operandSetup(oy) : []),
      ...stepLoop(i, n, [...(ox ? [ox] : []), ...(oy ? [oy] : []), { pointer: pout, storage: dd }], [0, 1, 2, 3].flatMap((k) => [...value(k), ...store(k)])),
    ];
    return encodeModule([l.function('update', [], body)], 1);
  }).update as DdUpdateChunk;
}

/** Whether every staged result's high part is finite (the templates' fast path held). */
function finiteResults(buffer: ArrayBuffer, count: number): boolean {
  const v = new Float64Array(buffer, OUT_AT, 2 * count);
  for (let k = 0; k < 2 * count; k += 2) if (v[k]! - v[k]! !== 0) return false;
  return true;
}

/**
 * out := the `form` of x and y for i < n (see update-wasm.ts) in fp64, fp32 (`numerics`, output double-double) or
 * double-double arithmetic (any output the JavaScript kernels write), with the JavaScript kernels' bits. The caller
 * checked the operands (inputs with one scale at most; an output that is also read, SCAL's x and AXPY's y, too); `jsChunk(from, count)` runs the JavaScript kernel on elements
 * [from, from + count), for the chunks whose double-double results are not all finite.
 */
export function wasmUpdateDd(
  form: UpdateForm, alpha: number, x: Accessor<1, any> | null, beta: number, y: Accessor<1, any> | null, out: Accessor<1, any>, n: number,
  numerics: 'f64' | 'f32' | 'dd', jsChunk: (from: number, count: number) => void,
): void {
  const sx = x ? stagedStorage(x) : null, sy = y ? stagedStorage(y) : null;
  const pairs = numerics === 'dd';
  const dd = pairs ? ddUpdateChunk(form, sx, sy, !!x?.scale, !!y?.scale) : undefined;
  const plain = pairs ? undefined : updateChunk(form, sx ? [sx, !!x!.scale] : null, sy ? [sy, !!y!.scale] : null, wasmStorageNamed('f64')!, numerics as 'f64' | 'f32');
  const scaleX = x ? scaleOf(x) : 1, scaleY = y ? scaleOf(y) : 1;
  reserveBytes(OUT_AT + CHUNK * 16);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  for (let from = 0; from < n; from += CHUNK) {
    const count = Math.min(CHUNK, n - from), padded = (count + 7) & ~7;
    if (x) stage(x, from, count, X_AT, padded, buffer);
    if (y) stage(y, from, count, Y_AT, padded, buffer);
    if (dd) dd(X_AT, scaleX, Y_AT, scaleY, padded, alpha, beta, OUT_AT);
    else plain!(X_AT, scaleX, Y_AT, scaleY, padded, alpha, beta, OUT_AT);
    if (pairs && !finiteResults(buffer, count)) { jsChunk(from, count); continue; }
    unstage(out, from, count, buffer, pairs, numerics === 'f32' ? 'f32' : 'f64');
  }
}

/**
 * The WebAssembly update for the kernels' numerics ({@link wasmNumericsOf}: 'f64', 'f32' or 'dd'): double-double
 * arithmetic or a double-double output by {@link wasmUpdateDd}, the rest by update-wasm.ts.
 */
export function wasmUpdateFor(
  form: UpdateForm, alpha: number, x: Accessor<1, any> | null, beta: number, y: Accessor<1, any> | null, out: Accessor<1, any>, n: number,
  numerics: ReturnType<typeof wasmNumericsOf>, jsChunk: (from: number, count: number) => void,
): void {
  const lanes = numerics === 'f32' ? 'f32' : 'f64';
  if (numerics === 'dd' || isDdOutput(out) || !plainOutput(out)) wasmUpdateDd(form, alpha, x, beta, y, out, n, numerics === 'dd' ? 'dd' : lanes, jsChunk);
  else wasmUpdate(form, alpha, x, beta, y, out, n, lanes);
}
