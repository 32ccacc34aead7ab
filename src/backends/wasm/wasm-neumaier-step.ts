/**
 * The compensated (`kahan`: Neumaier's variant, Ogita–Rump–Oishi's Sum2) step of the WebAssembly kernels, lane by
 * lane on f64x2 or f32x4 locals: the operations, in the order, of the JavaScript template
 * (src/formats/dd/neumaier-accumulation.ts with Knuth's TwoSum of src/formats/dd/eft-templates.ts), so a lane that
 * sees the JavaScript loop's terms in its order ends with its bits. Lanes are joined by {@link joinNeumaierLanes}.
 * @module
 */
import type { Accessor } from '../../../accessors/accessor.js';
import { V128, op, SIMD } from './wasm-encoder.js';
import type { WasmLocals } from './wasm-function.js';
import { reserveBytes, wasmMemory } from './wasm-runtime.js';
import { CHUNK, LANE_SUMS_AT, LANE_X_AT, laneReduce } from './wasm-storage.js';

/** Add and subtract opcodes of the lane format. */
const OPS = { f64: { add: SIMD.f64x2Add, sub: SIMD.f64x2Sub }, f32: { add: SIMD.f32x4Add, sub: 0xe5 /* f32x4.sub */ } } as const;

/** The v128 scratch locals of {@link neumaierStep}. */
export interface NeumaierScratch { readonly sum: number; readonly z: number; readonly w: number }

/** Allocates the scratch locals. */
export function neumaierScratch(l: WasmLocals): NeumaierScratch {
  return { sum: l.local(V128), z: l.local(V128), w: l.local(V128) };
}

/**
 * Instructions: adds the term on top of the stack into the compensated sum (s, c) (locals): S := s + t,
 * e := TwoSum's exact error, c := c + e, s := S. The term's local `t` is written first (the stack is consumed).
 * `round` follows every operation (ELL SpMV's f64x2 lanes in fp32 arithmetic: demote, promote — the binary32
 * operation, as 53 ≥ 2·24 + 2 bits).
 */
export function neumaierStep(k: NeumaierScratch, t: number, s: number, c: number, lanes: 'f64' | 'f32' = 'f64', round: readonly number[] = []): number[] {
  const { add, sub } = OPS[lanes];
  const f = (code: number): number[] => [...op.simd(code), ...round];
  const get = op.get, set = op.set;
  return [
    ...set(t),
    ...get(s), ...get(t), ...f(add), ...set(k.sum), //                            S = s + t
    ...get(k.sum), ...get(s), ...f(sub), ...set(k.z), //                          z = S − s
    ...get(s), ...get(k.sum), ...get(k.z), ...f(sub), ...f(sub), ...set(k.w), //  w = s − (S − z)
    ...get(c), ...get(k.w), ...get(t), ...get(k.z), ...f(sub), ...f(add), ...f(add), ...set(c), // c = c + (w + (t − z))
    ...get(k.sum), ...set(s),
  ];
}

const joinS = new Float64Array(8), joinC = new Float64Array(8);

/**
 * The eight lanes' compensated sums (s at sums[0 … 8), c at sums[cAt … cAt + 8)) joined in the lane kernels' tree
 * ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)): a join (sa, ca) + (sb, cb) is (S, (ca + cb) + e) with (S, e) =
 * TwoSum(sa, sb), in the lanes' arithmetic (fp32: each operation one binary32 rounding, Math.fround); the
 * result is s + c. Every TwoSum error enters c exactly, as in the JavaScript loop, so the result is Sum2 over a
 * different tree of additions: n − 1 TwoSums in all, each term under at most n − 1 of them, and the c's summed
 * over n − 1 errors — the quantities of Ogita–Rump–Oishi's bound, which does not depend on the order, so
 * neumaierAccumulation.bound (dotBound, gemvBound) holds as it is.
 */
export function joinNeumaierLanes(sums: Float64Array | Float32Array, lanes: 'f64' | 'f32' = 'f64', cAt = 8): number {
  // In place over two scratch arrays, the binary32 roundings written out (no allocation, no rounding callback:
  // GEMV joins once per row, and on short rows the join was the cost).
  for (let k = 0; k < 8; k++) { joinS[k] = sums[k]!; joinC[k] = sums[cAt + k]!; }
  const f = Math.fround;
  for (let width = 1; width < 8; width *= 2) {
    for (let a = 0; a < 8; a += 2 * width) {
      const b = a + width, sa = joinS[a]!, sb = joinS[b]!;
      if (lanes === 'f64') {
        const s = sa + sb, z = s - sa;
        joinS[a] = s;
        joinC[a] = (joinC[a]! + joinC[b]!) + ((sa - (s - z)) + (sb - z));
      } else {
        const s = f(sa + sb), z = f(s - sa);
        joinS[a] = s;
        joinC[a] = f(f(joinC[a]! + joinC[b]!) + f(f(sa - f(s - z)) + f(sb - z)));
      }
    }
  }
  return lanes === 'f64' ? joinS[0]! + joinC[0]! : f(joinS[0]! + joinC[0]!);
}

/**
 * Byte address of the eight lanes' compensations c of a one-vector compensated reduction ({@link kahanLaneReduce}):
 * after the chunk staged at LANE_X_AT (the sums s are at LANE_SUMS_AT, as for {@link laneReduce}).
 */
export const KAHAN_C_AT = LANE_X_AT + CHUNK * 8 + 64;

/**
 * Instructions loading (`store` false) or storing the lanes' (s, c) of a one-vector compensated reduction from or
 * into the v128 locals s + k and c + k, k < vectors.
 */
export function kahanLaneSums(s: number, c: number, vectors: number, store: boolean): number[] {
  return Array.from({ length: vectors }, (_, k) => [LANE_SUMS_AT + 16 * k, s + k, KAHAN_C_AT + 16 * k, c + k]).flatMap(([sAt, sLocal, cAt, cLocal]) => (store
    ? [...op.i32(0), ...op.get(sLocal!), ...op.simdMem(SIMD.store, 0, sAt), ...op.i32(0), ...op.get(cLocal!), ...op.simdMem(SIMD.store, 0, cAt)]
    : [...op.i32(0), ...op.simdMem(SIMD.load, 0, sAt), ...op.set(sLocal!), ...op.i32(0), ...op.simdMem(SIMD.load, 0, cAt), ...op.set(cLocal!)]));
}

/**
 * {@link laneReduce} with the kahan accumulation: `chunk` adds each term into its lane's compensated sum (s at
 * LANE_SUMS_AT, c at {@link KAHAN_C_AT}; see {@link kahanLaneSums}), the lanes are joined by
 * {@link joinNeumaierLanes} — the order of the compensated DOT (kernels/dot/dot-kahan-wasm.ts). NaN or ±∞ where a
 * term or a sum is not finite (TwoSum's error is then NaN): the caller lets the JavaScript kernel answer.
 */
export function kahanLaneReduce(x: Accessor<1, any>, n: number, chunk: (at: number, scale: number, padded: number) => void, lanes: 'f64' | 'f32'): number {
  reserveBytes(KAHAN_C_AT + 64);
  const Lanes = lanes === 'f64' ? Float64Array : Float32Array, bytes = Lanes.BYTES_PER_ELEMENT;
  new Lanes(wasmMemory().buffer as ArrayBuffer, KAHAN_C_AT, 8).fill(0);
  laneReduce(x, n, chunk, lanes);
  // One view from s to c (the staged chunk between them is skipped by the join's offset).
  const sums = new Lanes(wasmMemory().buffer as ArrayBuffer, LANE_SUMS_AT, (KAHAN_C_AT - LANE_SUMS_AT) / bytes + 8);
  return joinNeumaierLanes(sums, lanes, (KAHAN_C_AT - LANE_SUMS_AT) / bytes);
}
