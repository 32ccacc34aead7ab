/**
 * TRSV in double-double arithmetic in WebAssembly SIMD (recursive or `dd` accumulation; A in built-in storage,
 * unscaled or scaled — one scale, or one per row, column or element: each column staged as the pairs the JavaScript
 * reads, ./trsv-scaled-a.ts; x in any storage the JavaScript kernel writes, an x in scaled, fp16, bf16 or integer storage through that
 * kernel's own load and store: ./trsv-dd-stored-x-wasm.ts), with the JavaScript kernel's bits
 * (kernels/trsv/trsv-cpu.ts in dd arithmetic). Row i of the JavaScript kernel is
 *   s := (0, 0) + bᵢ, then s := (−tᵢⱼ)·xⱼ + s for each solved column j (ascending j forward, descending backward),
 *   xᵢ := s / tᵢᵢ, stored into x and read back,
 * each operation a template of src/formats/dd/dd-templates.ts (ddAdd, ddMulAccumulate, ddDiv) with its repair of a
 * zero's sign and of non-finite results; the `dd` accumulation puts term k (bᵢ is term 0) into chain k mod 2 and
 * joins the chains by ddAdd. Every row sees its terms in that order whatever the loop order, so this solves by
 * columns in any layout: once xⱼ is known, the multiply-accumulate of column j runs over every row not yet solved
 * in f64x2 lanes (wasm-dd-steps.ts: the template's operations, then its zero repair); the column is staged (a
 * strided gather where op(A)'s rows are the contiguous ones). The per-row operations — bᵢ's addition, the join of
 * the chains, the division and the store — are the guarded templates themselves (src/formats/dd/guarded.ts).
 * A lane step whose result is not finite is where the template's guard would run its slow form (the product
 * error recomputed with scaled operands, then IEEE's value): such a row's sum stays non-finite in the lanes (∞ and
 * NaN absorb), and it is recomputed with the guarded templates, term by term from the solved x's — so ∞, NaN, zero
 * pivots and splitting overflows near the top of the range give the JavaScript's values too.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { ddAccumulateStep, ddPairHalf, ddStepScratch, ddStepSetup } from '../../src/backends/wasm/wasm-dd-steps.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, stageVector, wasmStorageNamed, wasmStorageOfFormat, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { ddGuardedAdd, ddGuardedDiv, ddGuardedMulAccumulate } from '../../src/formats/dd/guarded.js';
import { roundPairToOdd } from '../../src/formats/convert/round-to-odd.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { isDdOutput } from '../shared/cpu-backend.js';
import { writesXItself } from './trsv-stored-x-wasm.js';
import { storedDdX, type DdX } from './trsv-dd-stored-x-wasm.js';
import { ddElementAt, stageScaledColumn } from './trsv-scaled-a.js';

/** f64x2.eq (no name in the encoder's table). */
const F64X2_EQ = 0x47;

type ColumnUpdate = (pa: number, ph: number, pl: number, padded: number, xh: number, xl: number) => void;

/**
 * (h, l)[r] := (−a_r)·(xh, xl) + (h, l)[r] for the `padded` (a multiple of 8) staged elements a at pa, the sums'
 * high parts at ph and low parts at pl: `ddMulAccumulate`'s operations lane by lane, then its zero repair (a zero
 * result takes the sign of the high parts' sum).
 */
function columnUpdate(sa: WasmStorage, pairs: boolean): ColumnUpdate {
  return wasmExports(`trsv-dd-column ${sa.name}${pairs ? ' pairs' : ''}`, 'the double-double TRSV kernel', () => {
    const l = new WasmLocals();
    const pa = l.param(I32), ph = l.param(I32), pl = l.param(I32), n = l.param(I32), xh = l.param(F64), xl = l.param(F64);
    const i = l.local(I32);
    const a = l.local(V128), al = l.local(V128), bh = l.local(V128), bl = l.local(V128), hi = l.local(V128), lo = l.local(V128);
    const s = ddStepScratch(l);
    const operand = operandLocals(l, { storage: sa, pointer: pa, scaleParam: -1 }, false);
    const f = (code: number): number[] => op.simd(code);
    const step = [0, 1, 2, 3].flatMap((k) => [
      // −t: the JavaScript negates both parts of the loaded register ((v, 0) for an exact double: its low part −0).
      ...(pairs
        ? [...ddPairHalf(pa, 32 * k, false), ...f(SIMD.f64x2Neg), ...op.set(a), ...ddPairHalf(pa, 32 * k, true), ...f(SIMD.f64x2Neg), ...op.set(al)]
        : [...load2(operand, k), ...f(SIMD.f64x2Neg), ...op.set(a)]),
      ...op.get(ph), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(hi),
      ...op.get(pl), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(lo),
      ...ddAccumulateStep(s, { a, b: bh, low: { a: al, b: bl }, hi, lo }),
      // The template's zero repair: hi := h where hi and h (the high parts' sum) are both zeros.
      ...op.get(ph),
      ...op.get(s.h), ...op.get(hi),
      ...op.get(hi), ...op.f64(0), ...f(SIMD.f64x2Splat), ...f(F64X2_EQ), ...op.get(s.h), ...op.f64(0), ...f(SIMD.f64x2Splat), ...f(F64X2_EQ), ...f(SIMD.and),
      ...f(SIMD.bitselect), ...op.simdMem(SIMD.store, 0, 16 * k),
      ...op.get(pl), ...op.get(lo), ...op.simdMem(SIMD.store, 0, 16 * k),
    ]);
    const body = [
      ...operandSetup(operand), ...ddStepSetup(s),
      ...(pairs ? [] : [...op.f64(-0), ...f(SIMD.f64x2Splat), ...op.set(al)]),
      ...op.get(xh), ...f(SIMD.f64x2Splat), ...op.set(bh), ...op.get(xl), ...f(SIMD.f64x2Splat), ...op.set(bl),
      ...stepLoop(i, n, [operand, { pointer: ph, storage: wasmStorageNamed('f64')! }, { pointer: pl, storage: wasmStorageNamed('f64')! }], step),
    ];
    return encodeModule([l.function('update', [], body)], 1);
  }).update as ColumnUpdate;
}

/**
 * x's reader and writer: unscaled f64, f32, dd or dd-split here; any other storage through the JavaScript kernel's
 * own load and store (./trsv-dd-stored-x-wasm.ts).
 */
function ddX(x: Accessor<1, any>, ar: ArithmeticFormat): DdX {
  if (!writesXItself(x) && !isDdOutput(x)) return storedDdX(x, ar);
  const stride = x.strides[0] as number, at = (i: number): number => x.offset + i * stride;
  const data = x.data as Float64Array | Float32Array | DdSplitArray;
  if (data instanceof DdSplitArray) {
    return {
      read: (i, out) => { out[0] = data.hi[at(i)]!; out[1] = data.lo[at(i)]!; },
      // A zero hi's own sign in lo (dd-storage.ts's write).
      write: (i, hi, lo) => { data.hi[at(i)] = hi; data.lo[at(i)] = hi === 0 ? hi : lo; },
    };
  }
  if (x.storage.kind === 'dd') {
    return {
      read: (i, out) => { out[0] = data[2 * at(i)]!; out[1] = data[2 * at(i) + 1]!; },
      write: (i, hi, lo) => { data[2 * at(i)] = hi; data[2 * at(i) + 1] = hi === 0 ? hi : lo; },
    };
  }
  // A number storage: read as (v, 0); written as hi − (0 − lo), or below 53 bits rounded to odd first (the Float32Array rounds once).
  const narrow = data instanceof Float32Array;
  return {
    read: (i, out) => { out[0] = data[at(i)]!; out[1] = 0; },
    write: (i, hi, lo) => { data[at(i)] = narrow ? roundPairToOdd(hi, lo) : hi - (0 - lo); },
  };
}

/**
 * Solves op(A)·x = b in place in double-double arithmetic `ar` (T = op(A); the caller checked the storages: A
 * built-in, unscaled or scaled, x in any storage the JavaScript kernel writes — see {@link ddX}; n ≥ 1), with the
 * recursive accumulation or the `dd` accumulation's two chains (`twoChains`).
 */
export function wasmDdTrsv(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, twoChains: boolean, ar: ArithmeticFormat): void {
  // A scaled A's columns are staged as the pairs the arithmetic reads (./trsv-scaled-a.ts), read as dd storage.
  const scaled = !!T.scale;
  const sa = scaled ? wasmStorageNamed('dd')! : wasmStorageOfFormat(T.storage) as WasmStorage;
  const pairs = scaled || T.storage.kind === 'dd';
  const update = columnUpdate(sa, pairs);
  const chains = twoChains ? 2 : 1;
  // Per chain, the high parts then the low parts of every row's sum (8 rows of room for the padding's lanes).
  const rows = n + 8, SUMS_AT = 64, PART = rows * 8, A_AT = SUMS_AT + 2 * chains * PART + 64;
  const piece = CHUNK;
  reserveBytes(A_AT + piece * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  // Views made once: nothing below grows the memory.
  const views = [0, 1, 2, 3].slice(0, 2 * chains).map((k) => new Float64Array(buffer, SUMS_AT + k * PART, rows));
  const part = (c: number, lo: boolean): Float64Array => views[2 * c + (lo ? 1 : 0)]!;
  const [ld, cs] = T.strides as [number, number];
  const io = ddX(x, ar), pair = new Float64Array(2), t = new Float64Array(2), q = new Float64Array(2);
  // The solved x's as later rows read them back from x's storage.
  const xh = new Float64Array(n), xl = new Float64Array(n);
  // Column j's rows below (or above) the diagonal as a vector: its offset set per column.
  const column = { data: T.data, storage: T.storage, offset: 0, strides: [ld] };
  // Term 0: (0, 0) + bᵢ into chain 0 (the other chain, if any, from (0, 0)).
  for (let c = 0; c < chains; c++) { part(c, false).fill(0); part(c, true).fill(0); }
  for (let i = 0; i < n; i++) {
    io.read(i, pair);
    ddGuardedAdd(q, 0, 0, pair[0]!, pair[1]!);
    part(0, false)[i] = q[0]!; part(0, true)[i] = q[1]!;
  }
  for (let step = 0; step < n; step++) {
    const j = lower ? step : n - 1 - step;
    // Row j has had `step` products: 1 + step terms.
    let sh = 0, sl = 0;
    let finite = true;
    for (const v of views) finite &&= v[j]! - v[j]! === 0;
    if (finite) [sh, sl] = rowResult(j, 1 + step, (c, lo) => part(c, lo)[j]!, twoChains, q);
    else [sh, sl] = recomputeRow(T, io, xh, xl, j, step, lower, twoChains, pair, t, q);
    if (!unit) {
      ddElementAt(T, j, j, t);
      ddGuardedDiv(q, sh, sl, t[0]!, t[1]!);
      [sh, sl] = [q[0]!, q[1]!];
    }
    io.write(j, sh, sl);
    io.read(j, pair);
    xh[j] = pair[0]!; xl[j] = pair[1]!;
    // Column j's products into the rows not yet solved: below j forward, above it backward; term 1 + step.
    const [from, count] = lower ? [j + 1, n - j - 1] : [0, j];
    const c = twoChains ? (1 + step) % 2 : 0;
    column.offset = T.offset + from * ld + j * cs;
    for (let k = 0; k < count; k += piece) {
      const m = Math.min(piece, count - k), padded = (m + 7) & ~7;
      if (scaled) stageScaledColumn(T, from + k, m, j, A_AT, padded, buffer, true);
      else stageVector(column as unknown as Accessor<1, any>, k, m, A_AT, padded, buffer);
      const row = SUMS_AT + (from + k) * 8, chain = 2 * c * PART;
      update(A_AT, row + chain, row + chain + PART, padded, xh[j]!, xl[j]!);
    }
  }
}

/**
 * The row's sum after `terms` terms, as the accumulation's result gives it: the single chain, or ddAdd(A, B) with
 * A the chain that would take the next term.
 */
function rowResult(j: number, terms: number, sum: (c: number, lo: boolean) => number, twoChains: boolean, out: Float64Array): [number, number] {
  if (!twoChains) return [sum(0, false), sum(0, true)];
  const a = terms % 2, b = 1 - a;
  ddGuardedAdd(out, sum(a, false), sum(a, true), sum(b, false), sum(b, true));
  return [out[0]!, out[1]!];
}

/** Row j's sum recomputed with the guarded templates: bᵢ, then the `step` products with the solved x's in the kernel's column order. */
function recomputeRow(
  T: Accessor<2, any>, io: DdX, xh: Float64Array, xl: Float64Array, j: number, step: number, lower: boolean, twoChains: boolean,
  pair: Float64Array, t: Float64Array, q: Float64Array,
): [number, number] {
  const sums = [new Float64Array(2), new Float64Array(2)];
  io.read(j, pair);
  ddGuardedAdd(sums[0]!, 0, 0, pair[0]!, pair[1]!);
  const n = xh.length;
  for (let k = 0; k < step; k++) {
    const col = lower ? k : n - 1 - k;
    ddElementAt(T, j, col, t);
    const s = sums[twoChains ? (1 + k) % 2 : 0]!;
    ddGuardedMulAccumulate(s, -t[0]!, -t[1]!, xh[col]!, xl[col]!, s[0]!, s[1]!);
  }
  return rowResult(j, 1 + step, (c, lo) => sums[c]![lo ? 1 : 0]!, twoChains, q);
}
