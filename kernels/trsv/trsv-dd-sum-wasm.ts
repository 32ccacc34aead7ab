/**
 * TRSV in fp64 arithmetic with the `dd` accumulation in WebAssembly SIMD (built-in storage; a scaled A — one scale,
 * or one per row, column or element — staged column by column as the doubles fl(v·s) the JavaScript reads,
 * ./trsv-scaled-a.ts), with the
 * JavaScript kernel's bits (kernels/trsv/trsv-cpu.ts with src/formats/dd/dd-accumulation.ts). Row i of the
 * JavaScript kernel keeps two double-double chains from (0, 0): term 0 is bᵢ, added by `ddAddNumber`; term k ≥ 1
 * is the product (−tᵢⱼ)·xⱼ of the k-th solved column in the row order (ascending j forward, descending backward),
 * added by `ddTwoProdAccumulate` into chain k mod 2; the chains are joined by `ddAdd` (the chain that would take
 * the next term first), rounded to a double (hi + lo), divided by tᵢᵢ in fp64, stored into x and read back.
 * Each row sees its terms in that order whatever the loop order, so this solves by columns in any layout: once xⱼ
 * is known, column j's products go into the chains of the rows not yet solved in f64x2 lanes with
 * `ddTwoProdAccumulate`'s operations (src/backends/wasm/wasm-dd-steps.ts; the template repairs no zero's sign, as
 * its sums start from +0); the column is staged (a strided gather where op(A)'s rows are the contiguous ones).
 * bᵢ's addition and the join are the guarded templates themselves (src/formats/dd/guarded.ts). A lane result that
 * is not finite is where the template's guard would take its slow form: that row's chains stay non-finite (∞ and
 * NaN absorb) and the row is recomputed with the guarded templates term by term, so ∞, NaN, zero pivots and
 * splitting overflows give the JavaScript's values too.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { ddAccumulateStep, ddStepScratch, ddStepSetup } from '../../src/backends/wasm/wasm-dd-steps.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, stageVector, wasmStorageNamed, wasmStorageOfFormat, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { ddGuardedAdd, ddGuardedAddNumber, ddGuardedTwoProdAccumulate } from '../../src/formats/dd/guarded.js';
import type { StoredX } from './trsv-stored-x-wasm.js';
import { numberElementAt, stageScaledColumn } from './trsv-scaled-a.js';

type ColumnUpdate = (pa: number, ph: number, pl: number, padded: number, xj: number) => void;

/**
 * (h, l)[r] := (−a_r)·xⱼ + (h, l)[r] for the `padded` (a multiple of 8) staged elements a at pa, the chain's high
 * parts at ph and low parts at pl: `ddTwoProdAccumulate`'s operations lane by lane.
 */
function columnUpdate(sa: WasmStorage): ColumnUpdate {
  return wasmExports(`trsv-dd-sum-column ${sa.name}`, 'the TRSV kernel', () => {
    const l = new WasmLocals();
    const pa = l.param(I32), ph = l.param(I32), pl = l.param(I32), n = l.param(I32), xj = l.param(F64);
    const i = l.local(I32), a = l.local(V128), b = l.local(V128), hi = l.local(V128), lo = l.local(V128);
    const s = ddStepScratch(l);
    const operand = operandLocals(l, { storage: sa, pointer: pa, scaleParam: -1 }, false);
    const step = [0, 1, 2, 3].flatMap((k) => [
      // −t as the JavaScript negates the value it read.
      ...load2(operand, k), ...op.simd(SIMD.f64x2Neg), ...op.set(a),
      ...op.get(ph), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(hi),
      ...op.get(pl), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(lo),
      ...ddAccumulateStep(s, { a, b, hi, lo }),
      ...op.get(ph), ...op.get(hi), ...op.simdMem(SIMD.store, 0, 16 * k),
      ...op.get(pl), ...op.get(lo), ...op.simdMem(SIMD.store, 0, 16 * k),
    ]);
    const body = [
      ...operandSetup(operand), ...ddStepSetup(s),
      ...op.get(xj), ...op.simd(SIMD.f64x2Splat), ...op.set(b),
      ...stepLoop(i, n, [operand, { pointer: ph, storage: wasmStorageNamed('f64')! }, { pointer: pl, storage: wasmStorageNamed('f64')! }], step),
    ];
    return encodeModule([l.function('update', [], body)], 1);
  }).update as ColumnUpdate;
}

/** The row's sum after `terms` terms: ddAdd(A, B), A the chain that would take the next term. */
function joined(terms: number, sum: (c: number, lo: boolean) => number, out: Float64Array): number {
  const a = terms % 2, b = 1 - a;
  ddGuardedAdd(out, sum(a, false), sum(a, true), sum(b, false), sum(b, true));
  return out[0]! + out[1]!;
}

/**
 * Solves op(A)·x = b in place in fp64 arithmetic with the `dd` accumulation (T = op(A); the caller checked the
 * storages: built-in, A unscaled or scaled; x f64 or f32, or the twin of a stored x with its `stored`; n ≥ 1).
 */
export function wasmDdSumTrsv(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, stored?: StoredX): void {
  const scaled = !!T.scale;
  const sa = scaled ? wasmStorageNamed('f64')! : wasmStorageOfFormat(T.storage) as WasmStorage;
  const update = columnUpdate(sa);
  // Per chain, the high parts then the low parts of every row's sum (8 rows of room for the padding's lanes).
  const rows = n + 8, SUMS_AT = 64, PART = rows * 8, A_AT = SUMS_AT + 4 * PART + 64;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  // Views made once: nothing below grows the memory.
  const views = [0, 1, 2, 3].map((k) => new Float64Array(buffer, SUMS_AT + k * PART, rows));
  const part = (c: number, lo: boolean): Float64Array => views[2 * c + (lo ? 1 : 0)]!;
  const [ld, cs] = T.strides as [number, number];
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number;
  const q = new Float64Array(2);
  // The solved x's as later rows read them back from x's storage.
  const solved = new Float64Array(n);
  const column = { data: T.data, storage: T.storage, offset: 0, strides: [ld] };
  for (const v of views) v.fill(0);
  // Term 0: (0, 0) + bᵢ into chain 0.
  for (let i = 0; i < n; i++) {
    ddGuardedAddNumber(q, 0, 0, xd[x.offset + i * xs]!);
    part(0, false)[i] = q[0]!; part(0, true)[i] = q[1]!;
  }
  for (let step = 0; step < n; step++) {
    const j = lower ? step : n - 1 - step;
    let finite = true;
    for (const v of views) finite &&= v[j]! - v[j]! === 0;
    // Row j has had `step` products: 1 + step terms.
    let r = finite ? joined(1 + step, (c, lo) => part(c, lo)[j]!, q) : recomputeRow(T, xd[x.offset + j * xs]!, solved, j, step, lower, q);
    if (!unit) r = r / numberElementAt(T, j, j);
    const xp = x.offset + j * xs;
    xd[xp] = stored ? stored(j, r) : r;
    solved[j] = xd[xp]!;
    // Column j's products into the rows not yet solved (below j forward, above it backward): term 1 + step.
    const [from, count] = lower ? [j + 1, n - j - 1] : [0, j];
    const chain = 2 * ((1 + step) % 2) * PART;
    column.offset = T.offset + from * ld + j * cs;
    for (let k = 0; k < count; k += CHUNK) {
      const m = Math.min(CHUNK, count - k), padded = (m + 7) & ~7;
      if (scaled) stageScaledColumn(T, from + k, m, j, A_AT, padded, buffer, false);
      else stageVector(column as unknown as Accessor<1, any>, k, m, A_AT, padded, buffer);
      const at = SUMS_AT + (from + k) * 8 + chain;
      update(A_AT, at, at + PART, padded, solved[j]!);
    }
  }
}

/** Row j's sum recomputed with the guarded templates: bⱼ, then the `step` products with the solved x's in the kernel's column order. */
function recomputeRow(T: Accessor<2, any>, b: number, solved: Float64Array, j: number, step: number, lower: boolean, q: Float64Array): number {
  const sums = [new Float64Array(2), new Float64Array(2)];
  ddGuardedAddNumber(sums[0]!, 0, 0, b);
  const n = solved.length;
  for (let k = 0; k < step; k++) {
    const col = lower ? k : n - 1 - k;
    const s = sums[(1 + k) % 2]!;
    ddGuardedTwoProdAccumulate(s, -numberElementAt(T, j, col), solved[col]!, s[0]!, s[1]!);
  }
  return joined(1 + step, (c, lo) => sums[c]![lo ? 1 : 0]!, q);
}
