/**
 * Double-double TRSV's update terms in GEMV's window (`ddTrsvWindow` in src/backends/webgpu/kernel-switches.ts; issue 18).
 *
 * The overlapped lane solve (./trsv-lanes-overlap-source.ts) spends its time in the near and far updates: each term
 * op(A)_ij·x_j is a fused multiply-add of a dd or f64 entry and the 112-bit register x_j (`mpXfFmaDdXf`, ≈ 945 integer
 * operations; `mpXfFmaF64Xf` ≈ 694) with two roundings. GEMV's partial pass sums such terms far cheaper in a 128-bit
 * fixed-point window (src/formats/dd/dd-gpu-gemv-long-wgsl.ts), but a window term takes dd or f64 operands, not the
 * register. So the block solve stores beside each x_j its dd pair x̃_j = hi + lo, hi = RN(x_j), lo = RN(x_j − hi)
 * (`mpXfToDdWords`, the dd store's rounding; once an element), the updates stage x̃ of the block x_p in workgroup memory,
 * and a lane's terms a_ij·x̃_j go through the arithmetic's
 * GEMV variant (`gemvVariant`: by default the long window with its dd terms), the lane's window settled once into the
 * register before the lane tree. The diagonal blocks' inverses (with dd's division), the block solve x_k = X̂_k·r_k and
 * the residual subtraction are unchanged.
 *
 * **Bound.** Row i's update by block p (columns J, lane ℓ of F lanes — W for the near update — taking n_c ≤ ⌈bs/F⌉ ≤ 16 of
 * them, F ≥ 16, bs ≤ 256):
 * 1. x̃_j: |x_j − hi| ≤ 2^-53·|x_j| and |x_j − hi − lo| ≤ 2^-53·|x_j − hi|, so |x̃_j − x_j| ≤ 2^-106·|x_j|. Where lo would
 *    be subnormal, x_j − hi (a multiple of 2^-1074, as every register value is, below 2^-1022) is stored exactly; where x_j
 *    itself is below 2^-1022, hi = x_j. (±∞ and NaN keep their class: hi is x_j's, lo is 0.)
 * 2. The lane's window: |ŝ_ℓ − Σ_{j∈J_ℓ} a_ij·x̃_j| ≤ γ_{2n_c+1}(2^-110)·Σ|a_ij·x̃_j| (the long window's bound, which
 *    includes the truncation of a dd entry's lo to the lean limbs; the per-step windows of `ddGemvLong` off give
 *    γ_{2n_c}). A term past n (row or column) or a lane past bs has both operands set to +0: a zero product, skipped,
 *    as the fused path skips it.
 * 3. The lane tree's log2 F additions: ŝ = Σ_ℓ ŝ_ℓ·(1 + θ_ℓ), |θ_ℓ| ≤ γ_{log2 F}(2^-110).
 * Since 1 + 2^-106 ≤ (1 + 2^-110)^16, the block sum errs by at most γ_k(2^-110)·Σ_{j∈J}|a_ij|·|x_j| with
 * k = 16 + 2n_c + 1 + log2 F ≤ 16 + 33 + 4 = 53, so by less than 54·2^-110 < 2^-104·Σ|a_ij|·|x_j|. `trsvBound` with
 * `backend: 'gpu'` in formats.dd (kernels/trsv/trsv-gpu-bound.ts) charges every block sum e = ρ_A ⊕ γ_s(u) with
 * u = 2^-102 (the CPU double-double's unit roundoff) and s = bs/4 + 3 ≥ 19: 2^-104 < u ≤ γ_s(u), so the bound holds
 * unchanged, for every block size and lane count. (Counted in the GPU's own 2^-110, bs/4 + 3 would not cover 53 for
 * bs = 64: the bound's u is what leaves the room.) As in the model, binary64's underflow of slow terms is not counted.
 *
 * **Special values.** A term whose operands are not both regular (±∞, NaN, a subnormal beside a non-zero operand, a
 * product out of binary64's range) takes the unfused multiply-add in the register, as the fused path: a non-finite
 * entry or x_j still makes some x non-finite, and the solve then goes to the substitution redo, which gives the CPU's
 * ±∞ and NaN (the default path's results). Partial sums inside a window are not rounded, so an intermediate sum that
 * would overflow binary64 but cancels stays finite (as in GEMV).
 * @module
 */
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { LANE_WORKGROUP } from './trsv-lanes-source.js';

/** The register kinds of A's reads whose terms the window takes (with x̃ in dd). */
const WINDOW_KINDS = ['dd', 'f64'] as const;

/** The window form of the updates: the arithmetic's GEMV variant, and the block size (the lane's terms are unrolled). */
export interface WindowTerms {
  readonly variant: GpuArithmetic;
  readonly bs: number;
}

/**
 * The window form for this arithmetic and A, or undefined where it does not apply: double-double (four words) with a
 * GEMV variant, A read as dd or f64.
 * @param arithmetic - the solve's arithmetic
 * @param A - the matrix
 * @param bs - the block size
 * @returns the form, or undefined
 */
export function windowTermsOf(arithmetic: GpuArithmetic, A: DeviceArray, bs: number): WindowTerms | undefined {
  const variant = arithmetic.components === 4 ? arithmetic.gemvVariant?.() : undefined;
  if (!variant) return undefined;
  const kind = A.format.emitRead('A', '0', 'probe', arithmetic).register.kind;
  return (WINDOW_KINDS as readonly string[]).includes(kind) ? { variant, bs } : undefined;
}

/**
 * Index of word 0 of x̃_e, the dd pair of x_e, in the atomic x array (uniform np): after x's np registers and the redo's
 * verdict word, on a 16-byte boundary.
 */
function ddCopyIndex(element: string): string {
  return `(np + 1 + ${element}) * 4`;
}

/**
 * Words the x array needs beyond its np registers and the redo's verdict word for the dd pairs x̃ ({@link ddCopyIndex}).
 * @param np - the padded length of x
 * @returns the extra words
 */
export function ddCopyWords(np: number): number {
  return 3 + 4 * np;
}

/**
 * Lines that store x̃_e = `mpXfToDdWords(register)` (hi = RN(x_e), lo = RN(x_e − hi)) beside x_e in the atomic array
 * `array`: the block solve's, once an element, so that the updates read dd pairs.
 * @param array - the atomic x array
 * @param register - x_e (the arithmetic's four words)
 * @param element - e
 * @returns the lines
 */
export function storeDdCopyLines(array: string, register: string, element: string): string[] {
  return [`const xdd = mpXfToDdWords(${register});`, ...Array.from({ length: 4 }, (_, k) => `mpAtomicStore(${array}[${ddCopyIndex(element)} + ${k}], mpBits(xdd[${k}]));`)];
}

/**
 * Lines that stage x̃ of the block from element `from` ({@link storeDdCopyLines}: bs dd pairs in the atomic array
 * `array`) into workgroup array 1 (element t at words 4t … 4t + 3), then a barrier.
 * @param array - the atomic x array
 * @param from - the block's first element
 * @returns the lines
 */
export function stageDdLines(array: string, from: string): string[] {
  return [
    `for (let t = l; t < bs * 4; t = t + ${LANE_WORKGROUP}) {`,
    `mpSharedSet(1, t, mpFloat(mpAtomicLoad(${array}[${ddCopyIndex(from)} + t])));`,
    '}',
    'mpBarrier();',
  ];
}

/**
 * Lines that leave in `s<z>` (a register of the arithmetic) lane `ln`'s sum of row `g`'s terms op(A)(g, c)·x̃_c over
 * the columns c = p0 + ln + qW (q = 0 … ⌈bs/W⌉ − 1), x̃ staged by {@link stageDdLines}: the terms unrolled, each read
 * at a clamped index and set to +0 where c ≥ n, g ≥ n or ln + qW ≥ bs, summed by the variant's `mulAddSteps` into one
 * accumulator and settled once (`returnValue`).
 * @param form - the window form
 * @param arithmetic - the solve's arithmetic
 * @param A - the matrix (format, view)
 * @param opIndex - index of op(A)(row, col) in A's binding
 * @param names - row `g`, lane `ln`, lanes a row `W`, suffix `z` of the names
 * @returns the lines
 */
export function windowLaneSum(form: WindowTerms, arithmetic: GpuArithmetic, A: DeviceArray, opIndex: (row: string, col: string) => string, names: { g: string; ln: string; W: number; z: string }): string[] {
  const { variant, bs } = form;
  const { g, ln, W, z } = names;
  const acc = `wacc${z}`;
  const lines = [variant.declareZero(acc), `const gc${z} = mpImin(${g}, n - 1);`];
  const terms: { acc: string; a: GpuRegister; b: GpuRegister }[] = [];
  for (let q = 0; q < Math.max(1, bs / W); q++) {
    const c = `wc${z}q${q}`;
    const ra = A.format.emitRead('A', opIndex(`gc${z}`, `mpImin(${c}, n - 1)`), `wr${z}q${q}`, arithmetic);
    const kind = ra.register.kind;
    const a = `wa${z}q${q}`;
    const x = `wx${z}q${q}`;
    lines.push(`const ${c} = p0 + ${ln} + ${q * W};`, ra.code, `let ${a} = ${kind === 'f64' ? '[0.0, 0.0]' : '[0.0, 0.0, 0.0, 0.0]'};`, `let ${x} = [0.0, 0.0, 0.0, 0.0];`,
      `if (${ln} + ${q * W} < ${bs} && ${c} < n && ${g} < n) {`, `${a} = ${ra.register.name};`,
      `${x} = [${Array.from({ length: 4 }, (_, k) => `mpShared(1, (${c} - p0) * 4 + ${k})`).join(', ')}];`, '}');
    terms.push({ acc, a: { kind, name: a }, b: { kind: 'dd', name: x } });
  }
  lines.push(...(variant.mulAddSteps ? variant.mulAddSteps(terms) : terms.map((t) => variant.mulAdd(t.acc, t.a, t.b))));
  lines.push(`let s${z} = ${variant.returnValue(acc)};`);
  return lines;
}
