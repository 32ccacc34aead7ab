/**
 * ASUM summed in double-double in WebAssembly SIMD (double-double arithmetic with the recursive or `dd`
 * accumulation, or fp64 arithmetic with the `dd` accumulation) on built-in storage, unscaled or with one scale. The order: |xᵢ| into
 * lane i mod 8 of eight double-double partial sums, then the accurate double-double addition in the tree
 * ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)) (joinDdLanes, as the DD DOT joins), the result hi − (0 − lo) as
 * the arithmetic's toNumber. Each term enters by the JavaScript template's operations: double-double storage under
 * double-double arithmetic as its pair, made non-negative as the arithmetic's abs does, by Algorithm 6
 * (ddAddSource); every other element (and dd storage under fp64 arithmetic, read as hi + lo) as the exact double
 * |xᵢ| by Algorithm 4 (ddAddNumberSource). A scaled x is read as the JavaScript reads it (src/backends/wasm/wasm-dd-read.ts):
 * in fp64 arithmetic the double fl(xᵢ·s), an exact double from there on; in double-double arithmetic the pair of the
 * arithmetic's product (xᵢ, 0)·(s, 0) — double-double storage: (hᵢ, lᵢ)·(s, 0) —, which is exact (xᵢ·s as p + e)
 * where the product does not underflow, and enters by Algorithm 6 as a pair. Not the JavaScript's bits (it adds in one or two chains), but within
 * asumBound: each addition errs by at most DD_ADD_BOUND (≤ 2^-102, the double-double unit roundoff) of its
 * result, the terms are non-negative, and a term passes through at most ⌈n/8⌉ − 1 lane additions and 3 joins that
 * are not exact (a join with an empty lane is), never more than the n − 1 of the recursive sum nor the ⌈n/2⌉ of
 * the dd accumulation's chains (n ≥ 2). ±Inf and NaN make the sum non-finite; the caller then runs the JavaScript.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { ddAbsStep, ddAddScratch, ddAddStep, ddLanesAround } from '../../src/backends/wasm/wasm-dd-steps.js';
import { ddReadOf, ddReader, type DdRead } from '../../src/backends/wasm/wasm-dd-read.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, streamVector, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';
import { joinDdLanes } from '../dot/dot-dd-wasm.js';

/** Byte addresses of the eight high parts, the eight low parts, and the staged chunk of x. */
const HI = 0, LO = 64, X_AT = 128;

type DdAsumChunk = (px: number, sx: number, n: number) => void;

function ddAsumChunk(sx: WasmStorage, read: DdRead, scaled: boolean): DdAsumChunk {
  return wasmExports(`asum-dd ${sx.name} ${read}${scaled ? '*s' : ''}`, 'the double-double ASUM kernel', () => {
    const l = new WasmLocals();
    const px = operandParams(l, sx);
    const n = l.param(I32);
    const i = l.local(I32);
    const hi = l.locals_(V128, 4), lo = l.locals_(V128, 4);
    const v = l.local(V128), vl = l.local(V128), t = l.local(V128);
    const scratch = ddAddScratch(l);
    // fp64 arithmetic multiplies by the scale in load2; double-double arithmetic takes the pair (ddScaledRead).
    const x = operandLocals(l, px, scaled && read === 'number');
    const reader = ddReader(l, x, read);
    const step = (k: number): number[] => (read !== 'number'
      ? [...reader.read(k, v, vl), ...ddAbsStep(v, vl, t), ...ddAddStep(scratch, hi + k, lo + k, v, vl)]
      : [...load2(x, k), ...op.simd(0xec /* f64x2.abs */), ...op.set(v), ...ddAddStep(scratch, hi + k, lo + k, v)]);
    const body = [
      ...operandSetup(x), ...reader.setup,
      ...ddLanesAround(hi, lo, HI, LO, stepLoop(i, n, [x], [0, 1, 2, 3].flatMap(step))),
    ];
    return encodeModule([l.function('asum', [], body)], 1);
  }).asum as DdAsumChunk;
}

/**
 * Σ|xᵢ| for i < n summed in double-double, as [hi, lo] (the caller checked {@link wasmStorageOf}: one scale at
 * most); `ddArithmetic`: x read as double-double arithmetic reads it ({@link ddReadOf}), else as fp64 arithmetic.
 * Non-finite where an element is (the caller then runs the JavaScript kernel).
 */
export function wasmDdAsum(x: Accessor<1, any>, n: number, ddArithmetic: boolean): [number, number] {
  const sx = wasmStorageOf(x) as WasmStorage;
  const f = ddAsumChunk(sx, ddReadOf(x, ddArithmetic), !!x.scale);
  reserveBytes(X_AT + CHUNK * 8);
  const acc = new Float64Array(wasmMemory().buffer as ArrayBuffer, HI, 16);
  acc.fill(0);
  const scale = scaleOf(x);
  streamVector(x, n, X_AT, (padded, at) => f(at, scale, padded));
  const out = new Float64Array(2);
  joinDdLanes(new Float64Array(wasmMemory().buffer as ArrayBuffer, HI, 16), out);
  return [out[0]!, out[1]!];
}
