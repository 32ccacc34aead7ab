/**
 * DOT summed in double-double in WebAssembly SIMD (double-double arithmetic, or fp64 arithmetic with the `dd`
 * accumulation) on built-in storage, unscaled or with one scale per operand, double-double storage included (read
 * as its pair in double-double arithmetic — the product then takes the cross terms of `ddMulAccumulate`,
 * src/formats/dd/mul.ts, with TwoSum at the end — and as hi + lo in fp64 arithmetic, as the JavaScript kernels read
 * it). A scaled operand is read as the JavaScript reads it (src/backends/wasm/wasm-dd-read.ts): fp64 arithmetic's
 * double fl(v·s); double-double arithmetic's pair (v, 0)·(s, 0), exact but for underflow, a double-double factor. Each step of 8 elements adds
 * xᵢ·yᵢ into lane i mod 8 of eight double-double partial sums by the steps of `ddTwoProdAccumulate`
 * (src/formats/dd/two-prod-accumulate.ts; the instructions: src/backends/wasm/wasm-dd-steps.ts): Dekker's exact
 * product — split by bits in blocks of 512 whose factors lie in [2^-480, 2^480), by Veltkamp elsewhere (the default
 * 'bits' form; the same product as Veltkamp's everywhere, so the same bits), or by Veltkamp throughout (the earlier
 * form) — or the fused multiply-add where the start-up probe found relaxed SIMD's fused (the same product), TwoSum of the high
 * parts, the low parts in two roundings, FastTwoSum. The eight sums are joined by the accurate double-double
 * addition in the tree ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)).
 *
 * Bounds: each step is s(1 + δ₁) + xy(1 + δ₂) with |δᵢ| ≤ (3 + 8u)u² < 2^-104 (exact doubles) or ≤ 15u² + 4u²
 * < 2^-102 (a double-double factor: ddMulAccumulate's bound, DD_UNIT_ROUNDOFF), and each join (a + b)(1 + δ)
 * with |δ| ≤ 3u² + 13u³; a term passes through at most ⌈n/8⌉ − 1 steps and 3 joins (the first step of a chain
 * with exact doubles and joins with an empty chain are exact), no more than the ⌈n/2⌉ steps of dotBound's dd models,
 * so dotBound holds as it is for both.
 *
 * The lazy form (`wasmKernelForms().ddDotLazy`, two exact doubles only; off by default): each lane keeps a pair
 * (s, c), and xᵢyᵢ enters lane i mod 8 by Dot2's step — (p, e) = TwoProd, (s, q) := TwoSum(s, p), c := c + (q + e) —
 * and every lane is folded, (s, c) := TwoSum(s, c), after each 64 elements of the vector (8 steps of each lane; blocks
 * start at multiples of 64, the last one padded with zeros, which leave the lanes as they are) — then the same tree.
 * Bound, with u = 2^-53, A = Σ|xᵢyᵢ|, A_ℓ ≤ A lane ℓ's part, first order (the (1 + O(u)) factors are far inside the
 * margins below): a step at position j = 1 … 8 of its block errs by u|q + e| + u|c′| (the two roundings of c), where
 * |q| ≤ u|s′| ≤ u(1 + O(u))A_ℓ, |e| ≤ u|xᵢyᵢ|, and c′ holds the fold's remainder (≤ uA_ℓ; none in the lane's first
 * block) plus the j steps' q and e: |c′| ≤ (j + 2)uA_ℓ; so ≤ u²((j + 3)A_ℓ + |xᵢyᵢ|) — (j + 2) in the first block,
 * whose first step is exact (s = 0: q = 0, c = e). TwoSum folds are exact, and the folded pairs are normalised, as the
 * joins need. With m = ⌈n/8⌉ steps in the longest lane the steps err by at most u²A(1 + S_m), where
 * S_m = Σ_{k=2…m} (j_k + 3) ≤ (m − 1)(m + 6)/2 for m ≤ 8 and ≤ 7.5m − 11 beyond (a full block adds 60 = 7.5·8);
 * the 3 joins add ≤ 3D·A with D = DD_ADD_BOUND ≥ 3u². The tightest bound that dotBound gives for these numerics
 * (fp64 with the dd accumulation: γ_⌈n/2⌉(D)(1 + u)·A, and u|result| for the rounding to a double, as here) allows
 * ⌈n/2⌉·D·A ≥ (4(m − 1) + 1)·D·A; what remains after the joins, (4m − 6)·3u²·A, covers (1 + S_m)u²·A for every
 * m ≥ 2 (m = 2: 5 ≤ 6; m = 8: 50 ≤ 78; large m: 7.5m − 10 ≤ 12m − 18); for m = 1 every step is exact and
 * the joins alone err, as in the dd form. The dd arithmetic's bounds (γ_n or γ_⌈n/2⌉+1 of 2^-102 = 16u²) are looser still.
 * Additions never round into the subnormal range inexactly, so underflow enters only through e, as in the dd form.
 * With `ddDotSplit: 'bits'` the lazy form splits every product by bits, without the guard: the same e wherever no
 * partial product underflows (wasm-dd-steps.ts, DdSplit); where one does, e errs by at most the four partial products'
 * roundings, ≤ 2η, as Veltkamp's does — dotBound's 2nη; a partial product that overflows makes the result non-finite.
 *
 * Operands near the top of the range make the splitting overflow (not the fused product, which is exact there, as
 * the JavaScript's scaled path is); non-finite inputs make everything NaN or ±∞.
 * Both reach the result through +, −, × only, so a finite result proves neither happened; a non-finite one sends
 * the call to the generated JavaScript, whose guarded loop handles them (kernels/dot/dot.ts).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, countLoop, load2, operandLocals, operandParams, operandSetup, stepLoop, type WasmOperand } from '../../src/backends/wasm/wasm-function.js';
import {
  ddAccumulateStep, ddLanesAround, ddLazyStep, ddPairHalf, ddRenormStep, ddSplitGuardScan, ddSplitGuardStart, ddSplitGuardVerdict, ddStepScratch, ddStepSetup,
  ddVeltkampScratch, type DdSplit, type DdStepScratch,
} from '../../src/backends/wasm/wasm-dd-steps.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { wasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { CHUNK, scaleOf, streamPairs, type WasmStorage, wasmStorageOf } from '../../src/backends/wasm/wasm-storage.js';
import { ddReader, type DdRead } from '../../src/backends/wasm/wasm-dd-read.js';
import { addPairs } from '../../src/formats/dd/add.js';

/** Byte addresses of the eight high parts, the eight low parts, and the staged chunks of x and y. */
const HI = 0, LO = 64, X_AT = 128, Y_AT = X_AT + CHUNK * 8;
/** Byte address of 32 bytes for the splitting constants of the pinned forms (wasm-dd-steps.ts, ddStepSetup). */
const PIN_AT = Y_AT + CHUNK * 8;

/**
 * A compiled double-double DOT chunk: adds Σ x·y over `n` staged elements (a multiple of 8) into the eight
 * double-double partial sums at byte address 0 (element 8t + 2k + l into lane l of pair k: high parts at bytes
 * 0–63, low parts at 64–127); the scale arguments are read only by chunks compiled for scaled operands.
 */
export type DdDotChunk = (px: number, sx: number, py: number, sy: number, n: number) => void;

/**
 * The compiled chunk function for these storages; `ddArithmetic`: dd storage is read as its pairs. `scaled`: which
 * of x and y have a scale (one each), read as the arithmetic reads them (src/backends/wasm/wasm-dd-read.ts: fp64's
 * fl(v·s); double-double's pair (v, 0)·(s, 0), a double-double factor) — the chunk then takes its scale arguments.
 * `split`: how the products are split without a fused multiply-add (src/backends/wasm/wasm-dd-steps.ts); the
 * pinned forms keep their constants at byte address {@link PIN_AT}, which only {@link wasmDdDot}'s layout leaves free.
 */
export function ddDotChunk(sx: WasmStorage, sy: WasmStorage, ddArithmetic: boolean, split: DdSplit = 'veltkamp', scaled: readonly [boolean, boolean] = [false, false], lazy = false): DdDotChunk {
  const scaleKey = scaled[0] || scaled[1] ? ` ${scaled[0] ? 's' : '1'}${scaled[1] ? 's' : '1'}` : '';
  // The lazy form is for two exact unscaled doubles; with 'bits' it splits by bits without the guard (module comment).
  const pairs = ddArithmetic && (sx.name === 'dd' || sy.name === 'dd');
  const lazyForm = lazy && !pairs && !scaled[0] && !scaled[1];
  return wasmExports(`dot-dd ${sx.name} ${sy.name}${ddArithmetic ? ' dd' : ''} ${split}${scaleKey}${lazyForm ? ' lazy' : ''}`, 'the double-double DOT kernel', () => {
    const l = new WasmLocals();
    const px = operandParams(l, sx), py = operandParams(l, sy);
    const n = l.param(I32);
    const i = l.local(I32);
    const hi = l.locals_(V128, 4), lo = l.locals_(V128, 4);
    const [a, b, al, bl] = Array.from({ length: 4 }, () => l.local(V128));
    const scratch = ddStepScratch(l, split);
    // Double-double storage and scaled operands (dd arithmetic) are read as pairs, and the product's cross terms
    // enter as in ddMulAccumulate (src/formats/dd/mul.ts); an exact double's low part is 0, as in the JavaScript kernels.
    const readOf = (st: WasmStorage, s: boolean): DdRead => (ddArithmetic && s ? 'scaled-pairs' : ddArithmetic && st.name === 'dd' ? 'pairs' : 'number');
    const [readX, readY] = [readOf(sx, scaled[0]), readOf(sy, scaled[1])];
    const x = operandLocals(l, px, scaled[0] && readX === 'number'), y = operandLocals(l, py, scaled[1] && readY === 'number');
    const [rx, ry] = [ddReader(l, x, readX), ddReader(l, y, readY)];
    const pairX = readX !== 'number', pairY = readY !== 'number';
    const general = pairX || pairY;
    const step = (sc: typeof scratch) => (k: number): number[] => [
      ...rx.read(k, a, general ? al : undefined), ...ry.read(k, b, general ? bl : undefined),
      ...ddAccumulateStep(sc, { a, b, low: general ? { a: al, b: bl } : undefined, hi: hi + k, lo: lo + k }),
    ];
    // 'bits' is guarded: blocks of GUARD_BLOCK elements whose factors (high parts) all lie in the guard's range take
    // the bit splitting, the others Veltkamp's — the same (p, e) in the range, so the same bits (wasm-dd-steps.ts).
    // The guard scans stored high parts: a scaled pair's factors are others, so with a scale Veltkamp's runs throughout
    // (its constant in the split local).
    const guarded = scratch.half >= 0 && !scaled[0] && !scaled[1];
    const veltkamp = guarded ? ddVeltkampScratch(scratch, l.local(V128)) : scratch.half >= 0 ? ddVeltkampScratch(scratch, scratch.split) : scratch;
    const loop = lazyForm ? lazyLoop(l, i, n, x, y, scratch, hi, lo, a, b)
      : guarded ? guardedLoop(l, n, x, y, pairX, pairY, step(scratch), step(veltkamp)) : stepLoop(i, n, [x, y], [0, 1, 2, 3].flatMap(step(veltkamp)));
    const body = [
      ...operandSetup(x), ...operandSetup(y), ...rx.setup, ...ry.setup,
      ...(guarded ? [...ddStepSetup(scratch, PIN_AT), ...ddStepSetup(veltkamp)] : ddStepSetup(veltkamp, PIN_AT)),
      ...ddLanesAround(hi, lo, HI, LO, loop),
    ];
    return encodeModule([l.function('dot', [], body)], 1);
  }).dot as DdDotChunk;
}

/** Elements per step of the lazy loop: 8 steps of each lane between two folds (the bound's block, module comment). */
export const DD_LAZY_BLOCK = 64;

/**
 * The lazy loop over n elements (a multiple of {@link DD_LAZY_BLOCK}): per block, an inner loop of 8 steps of 8
 * elements (element 8t + 2k + l into lane l of pair k, as the dd form), then each lane folded back by TwoSum.
 * The inner loop keeps the code as small as the dd form's (the whole block unrolled was slower on the shared VM).
 */
function lazyLoop(l: WasmLocals, i: number, n: number, x: WasmOperand, y: WasmOperand, s: DdStepScratch, hi: number, lo: number, a: number, b: number): number[] {
  const j = l.local(I32), block = l.local(I32);
  const steps = [0, 1, 2, 3].flatMap((k) => [...load2(x, k), ...op.set(a), ...load2(y, k), ...op.set(b), ...ddLazyStep(s, a, b, hi + k, lo + k)]);
  const folds = [0, 1, 2, 3].flatMap((k) => ddRenormStep(hi + k, lo + k, s.h, s.z));
  return [
    ...op.i32(DD_LAZY_BLOCK), ...op.set(block),
    ...countLoop(i, n, DD_LAZY_BLOCK, [...stepLoop(j, block, [x, y], steps), ...folds]),
  ];
}

/** Elements per guarded block: the scan reads them, then the step loop reads them again from the first-level cache. */
const GUARD_BLOCK = 512;

/**
 * The guarded 'bits' loop over n elements (a multiple of 8): per block of up to {@link GUARD_BLOCK} elements, a scan
 * of the factors' high parts (ddSplitGuardScan), then the block's steps with the bit splitting where the verdict is
 * safe, with Veltkamp's otherwise.
 */
function guardedLoop(
  l: WasmLocals, n: number, x: WasmOperand, y: WasmOperand, pairX: boolean, pairY: boolean,
  bitsStep: (k: number) => number[], veltkampStep: (k: number) => number[],
): number[] {
  const at = l.local(I32), m = l.local(I32), i = l.local(I32), j = l.local(I32), qx = l.local(I32), qy = l.local(I32);
  const min = l.local(V128), max = l.local(V128), t = l.local(V128);
  const sx = { ...x, pointer: qx }, sy = { ...y, pointer: qy };
  const high = (o: WasmOperand, pair: boolean, k: number): number[] => (pair ? ddPairHalf(o.pointer, 32 * k, false) : load2(o, k));
  const scan = [0, 1, 2, 3].flatMap((k) => [
    ...high(sx, pairX, k), ...ddSplitGuardScan(min, max, t), ...high(sy, pairY, k), ...ddSplitGuardScan(min, max, t),
  ]);
  return [
    ...op.i32(0), ...op.set(at), ...op.block(), ...op.loop(),
    ...op.get(at), ...op.get(n), ...op.i32GeS(), ...op.brIf(1),
    // m = min(n − at, GUARD_BLOCK)
    ...op.get(n), ...op.get(at), ...op.i32Sub(), ...op.set(m),
    ...op.i32(GUARD_BLOCK), ...op.get(m), ...op.i32LtS(), ...op.if(), ...op.i32(GUARD_BLOCK), ...op.set(m), ...op.end(),
    ...op.get(x.pointer), ...op.set(qx), ...op.get(y.pointer), ...op.set(qy),
    ...ddSplitGuardStart(min, max),
    ...stepLoop(j, m, [sx, sy], scan),
    ...ddSplitGuardVerdict(min, max), ...op.if(),
    ...stepLoop(i, m, [x, y], [0, 1, 2, 3].flatMap(bitsStep)),
    ...op.else(),
    ...stepLoop(i, m, [x, y], [0, 1, 2, 3].flatMap(veltkampStep)),
    ...op.end(),
    ...op.get(at), ...op.get(m), ...op.i32Add(), ...op.set(at),
    ...op.br(0), ...op.end(), ...op.end(),
  ];
}

/**
 * The eight double-double partial sums at acc (high parts acc[0 … 8), low parts acc[8 … 16)) joined by the
 * accurate addition in the tree ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)), into out as [hi, lo].
 */
export function joinDdLanes(acc: Float64Array, out: Float64Array): void {
  // Allocation-free (GEMV joins once per row): the four pair sums, then the two halves, then the whole.
  const t = joinScratch;
  for (let k = 0; k < 4; k++) {
    addPairs(out, acc[2 * k]!, acc[8 + 2 * k]!, acc[2 * k + 1]!, acc[9 + 2 * k]!);
    t[2 * k] = out[0]!; t[2 * k + 1] = out[1]!;
  }
  addPairs(out, t[0]!, t[1]!, t[2]!, t[3]!);
  const h = out[0]!, l = out[1]!;
  addPairs(out, t[4]!, t[5]!, t[6]!, t[7]!);
  addPairs(out, h, l, out[0]!, out[1]!);
}

const joinScratch = new Float64Array(8);

/**
 * Σ xᵢyᵢ for i < n summed in double-double, as [hi, lo] (the caller checked {@link wasmStorageOf} for both: one
 * scale each at most). Non-finite when the inputs or the splitting were (see the module comment).
 */
export function wasmDdDot(x: Accessor<1, any>, y: Accessor<1, any>, n: number, ddArithmetic: boolean): [number, number] {
  const sx = wasmStorageOf(x) as WasmStorage, sy = wasmStorageOf(y) as WasmStorage;
  const forms = wasmKernelForms();
  const scaled = [!!x.scale, !!y.scale] as const;
  const lazy = forms.ddDotLazy && !(ddArithmetic && (sx.name === 'dd' || sy.name === 'dd')) && !scaled[0] && !scaled[1];
  const f = ddDotChunk(sx, sy, ddArithmetic, forms.ddDotSplit, scaled, lazy);
  const [scaleX, scaleY] = [scaleOf(x), scaleOf(y)];
  reserveBytes(PIN_AT + 32);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const acc = new Float64Array(buffer, HI, 16);
  acc.fill(0);
  // The lazy form's blocks start at multiples of 64 elements of the whole vector, staged or in place.
  streamPairs(x, y, n, X_AT, Y_AT, (padded, px, py) => f(px, scaleX, py, scaleY, padded), lazy ? DD_LAZY_BLOCK : 8, true);
  const out = new Float64Array(2);
  joinDdLanes(acc, out);
  return [out[0]!, out[1]!];
}
