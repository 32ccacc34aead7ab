/**
 * The compensated (`kahan`: Neumaier's variant, Ogita–Rump–Oishi's Sum2) step of the WebAssembly kernels, lane by
 * lane on f64x2 or f32x4 locals: the operations, in the order, of the JavaScript template
 * (src/formats/dd/neumaier-accumulation.ts with Knuth's TwoSum of src/formats/dd/eft-templates.ts), so a lane that
 * sees the JavaScript loop's terms in its order ends with its bits. Lanes are joined by {@link joinNeumaierLanes}.
 * @module
 */
import { V128, op, SIMD } from './wasm-encoder.js';
import type { WasmLocals } from './wasm-function.js';

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
 */
export function neumaierStep(k: NeumaierScratch, t: number, s: number, c: number, lanes: 'f64' | 'f32' = 'f64'): number[] {
  const { add, sub } = OPS[lanes];
  const f = (code: number): number[] => op.simd(code);
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
