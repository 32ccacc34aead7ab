/**
 * The `pairwise` and `dot2` accumulations in WebAssembly, term by term in the JavaScript templates' order
 * (src/formats/dd/pairwise-accumulation.ts, src/formats/dd/dot2-accumulation.ts with the TwoSum and TwoProd of
 * src/formats/dd/eft-templates.ts): the same operations on the same operands, so a kernel that feeds the terms in
 * the JavaScript loop's order ends with the JavaScript's bits. Unlike the recursive and kahan accumulations these
 * define their own order (a block-and-level tree, a chain of TwoSums), so they run on scalar f64 locals, not in
 * SIMD lanes. fp32 arithmetic: every operation the JavaScript rounds with Math.fround is an f64 operation followed
 * by demote and promote — Math.fround itself — so even Dot2's unrounded product error r = a·b − fl(a·b) is a double
 * as in the JavaScript.
 *
 * The state (block sum, block count, level counter and the 33 levels; or Dot2's p and s) lives at
 * {@link ORDERED_STATE_AT} between a kernel's chunk calls; {@link orderedReset} and {@link orderedResult} are the
 * templates' reset and result in JavaScript.
 * @module
 */
import { F64, I32, op } from './wasm-encoder.js';
import type { WasmLocals } from './wasm-function.js';
import { PAIRWISE_BLOCK } from '../../formats/dd/pairwise-accumulation.js';

/** The accumulations run here. */
export type OrderedAccumulation = 'pairwise' | 'dot2';

/** Byte address of the state: f64 block sum or p at +0, f64 s at +8, i32 k at +16, i32 level counter at +20, levels from +32. */
export const ORDERED_STATE_AT = 0;
const SUM = ORDERED_STATE_AT, S2 = ORDERED_STATE_AT + 8, K = ORDERED_STATE_AT + 16, COUNT = ORDERED_STATE_AT + 20, LEVELS = ORDERED_STATE_AT + 32;
/** Bytes of the state (33 levels, as the JavaScript stack). */
export const ORDERED_STATE_BYTES = 32 + 33 * 8;

// Scalar opcodes not in wasm-encoder's `op` (kept here: this is their only user).
const F64_SUB = 0xa1, F64_ABS = 0x99, F64_PROMOTE_F32 = 0xbb, F32_DEMOTE_F64 = 0xb6;
const I32_EQ = 0x46, I32_LE_S = 0x4c, I32_AND = 0x71, I32_SHR_U = 0x76;
const f64Load = (offset: number): number[] => [0x2b, 3, ...uleb32(offset)];
const f64Store = (offset: number): number[] => [0x39, 3, ...uleb32(offset)];
const i32Load = (offset: number): number[] => [0x28, 2, ...uleb32(offset)];
const i32Store = (offset: number): number[] => [0x36, 2, ...uleb32(offset)];
function uleb32(n: number): number[] {
  const out: number[] = [];
  do { let b = n & 0x7f; n >>>= 7; if (n !== 0) b |= 0x80; out.push(b); } while (n !== 0);
  return out;
}

/** Instructions leaving |v| (f64 local) on the stack. */
export const absOf = (v: number): number[] => [...op.get(v), F64_ABS];

/** Instructions: the f64 on the stack rounded to binary32 and back (Math.fround) in fp32 arithmetic; nothing in fp64. */
export function roundTo(arithmetic: 'f64' | 'f32'): number[] {
  return arithmetic === 'f32' ? [F32_DEMOTE_F64, F64_PROMOTE_F32] : [];
}

/** Emits one accumulation's steps on the scalar locals of one function. */
export class OrderedSum {
  private readonly r: number[];
  // pairwise: block sum, term count in the block, level counter, carry t, level value u, counter copy c, level l.
  // dot2: p, s, product h, error r, TwoSum's P, q, z, t and the splitting temporaries.
  private readonly sum: number; private readonly s: number; private readonly k: number; private readonly count: number;
  private readonly t: number; private readonly u: number; private readonly c: number; private readonly lv: number;
  private readonly h: number; private readonly e: number; private readonly big: number; private readonly q: number; private readonly z: number;
  private readonly split: number;

  constructor(l: WasmLocals, readonly accumulation: OrderedAccumulation, readonly arithmetic: 'f64' | 'f32') {
    this.r = roundTo(arithmetic);
    this.sum = l.local(F64); this.s = l.local(F64); this.k = l.local(I32); this.count = l.local(I32);
    this.t = l.local(F64); this.u = l.local(F64); this.c = l.local(I32); this.lv = l.local(I32);
    this.h = l.local(F64); this.e = l.local(F64); this.big = l.local(F64); this.q = l.local(F64); this.z = l.local(F64);
    this.split = l.locals_(F64, 6);
  }

  /** Instructions loading the state from memory into the locals (the function's start). */
  load(): number[] {
    return this.accumulation === 'pairwise'
      ? [...op.i32(0), ...f64Load(SUM), ...op.set(this.sum), ...op.i32(0), ...i32Load(K), ...op.set(this.k), ...op.i32(0), ...i32Load(COUNT), ...op.set(this.count)]
      : [...op.i32(0), ...f64Load(SUM), ...op.set(this.sum), ...op.i32(0), ...f64Load(S2), ...op.set(this.s)];
  }

  /** Instructions storing the locals' state into memory (the function's end). */
  store(): number[] {
    return this.accumulation === 'pairwise'
      ? [...op.i32(0), ...op.get(this.sum), ...f64Store(SUM), ...op.i32(0), ...op.get(this.k), ...i32Store(K), ...op.i32(0), ...op.get(this.count), ...i32Store(COUNT)]
      : [...op.i32(0), ...op.get(this.sum), ...f64Store(SUM), ...op.i32(0), ...op.get(this.s), ...f64Store(S2)];
  }

  /** fl(a ∘ b) of two instruction sequences. */
  private bin(a: readonly number[], b: readonly number[], code: number): number[] {
    return [...a, ...b, code, ...this.r];
  }

  /** The template's emitAddProduct(a, b) (a, b: f64 locals holding values of the arithmetic, left unchanged). */
  addProduct(a: number, b: number): number[] {
    const g = op.get, set = op.set, r = this.r;
    if (this.accumulation === 'pairwise') {
      // blk := fl(fl(a·b) + blk)
      return [...g(a), ...g(b), 0xa2, ...r, ...g(this.sum), 0xa0, ...r, ...set(this.sum), ...this.endOfBlock()];
    }
    const product = this.arithmetic === 'f64'
      ? [...g(a), ...g(b), 0xa2, ...set(this.h), ...this.dekkerError(a, b)]
      // ≤ 26-bit arithmetic: h = fl(a·b), r = a·b − h in binary64 (exact, unrounded)
      : [...g(a), ...g(b), 0xa2, ...r, ...set(this.h), ...g(a), ...g(b), 0xa2, ...g(this.h), F64_SUB, ...set(this.e)];
    return [
      ...product,
      ...this.twoSum(this.h),
      ...this.bin(g(this.q), g(this.e), 0xa0), ...set(this.q), //  q := q + r
      ...this.bin(g(this.s), g(this.q), 0xa0), ...set(this.s), //  s := s + q
    ];
  }

  /** The template's emitAdd(a) (a: an f64 local holding a value of the arithmetic). */
  add(a: number): number[] {
    const g = op.get, set = op.set, r = this.r;
    if (this.accumulation === 'pairwise') return [...g(this.sum), ...g(a), 0xa0, ...r, ...set(this.sum), ...this.endOfBlock()];
    return [...this.twoSum(a), ...this.bin(g(this.s), g(this.q), 0xa0), ...set(this.s)];
  }

  /** Knuth's TwoSum of the template: (P, q) := TwoSum(p, b); p := P. */
  private twoSum(b: number): number[] {
    const g = op.get, set = op.set, p = this.sum, P = this.big, z = this.z, t = this.t, q = this.q;
    return [
      ...this.bin(g(p), g(b), 0xa0), ...set(P), //   P = p + b
      ...this.bin(g(P), g(p), F64_SUB), ...set(z), // z = P − p
      ...this.bin(g(P), g(z), F64_SUB), ...set(t), // t = P − z
      ...this.bin(g(p), g(t), F64_SUB), ...set(t), // t = p − t
      ...this.bin(g(b), g(z), F64_SUB), ...set(z), // z = b − z
      ...this.bin(g(t), g(z), 0xa0), ...set(q), //   q = t + z
      ...g(P), ...set(p),
    ];
  }

  /** Dekker's error of h = a·b with Veltkamp's splitting, the operations of dd-templates' dekkerErrorSource, into e. */
  private dekkerError(a: number, b: number): number[] {
    const g = op.get, set = op.set;
    const [ta, a1, a2, tb, b1, b2] = Array.from({ length: 6 }, (_, k) => this.split + k) as [number, number, number, number, number, number];
    const halves = (x: number, tx: number, x1: number, x2: number): number[] => [
      ...op.f64(134217729), ...g(x), 0xa2, ...set(tx),
      ...g(tx), ...g(tx), ...g(x), F64_SUB, F64_SUB, ...set(x1),
      ...g(x), ...g(x1), F64_SUB, ...set(x2),
    ];
    return [
      ...halves(a, ta, a1, a2), ...halves(b, tb, b1, b2),
      ...g(a1), ...g(b1), 0xa2, ...g(this.h), F64_SUB, ...g(a1), ...g(b2), 0xa2, 0xa0,
      ...g(a2), ...g(b1), 0xa2, 0xa0, ...g(a2), ...g(b2), 0xa2, 0xa0, ...set(this.e),
    ];
  }

  /** When the block is full: push it as a level-0 partial sum, carrying up, and start a new block (pairwise's endOfBlock). */
  private endOfBlock(): number[] {
    const g = op.get, set = op.set, r = this.r;
    const levelAddress = [...g(this.lv), ...op.i32(3), ...op.i32Shl()];
    return [
      ...g(this.k), ...op.i32(1), ...op.i32Add(), ...op.tee(this.k), ...op.i32(PAIRWISE_BLOCK), I32_EQ, ...op.if(),
      ...op.i32(0), ...set(this.k), ...g(this.sum), ...set(this.t), ...op.f64(0), ...set(this.sum),
      ...g(this.count), ...set(this.c), ...op.i32(0), ...set(this.lv),
      ...op.block(), ...op.loop(),
      ...g(this.c), ...op.i32(1), I32_AND, ...op.i32Eqz(), ...op.brIf(1),
      ...levelAddress, ...f64Load(LEVELS), ...g(this.t), 0xa0, ...r, ...set(this.t), // t := stack[l] + t
      ...g(this.c), ...op.i32(1), I32_SHR_U, ...set(this.c), ...g(this.lv), ...op.i32(1), ...op.i32Add(), ...set(this.lv),
      ...op.br(0), ...op.end(), ...op.end(),
      ...levelAddress, ...g(this.t), ...f64Store(LEVELS),
      ...g(this.count), ...op.i32(1), ...op.i32Add(), ...set(this.count),
      ...op.end(),
    ];
  }
}

/** Instructions: run `body` only when `j` < the i32 local `limit` (the step's real elements; the rest is padding). */
export function whenBelow(limit: number, j: number, body: readonly number[]): number[] {
  return [...op.block(), ...op.get(limit), ...op.i32(j), I32_LE_S, ...op.brIf(0), ...body, ...op.end()];
}

/** Views of the state, made again only when the memory grows (GEMV resets and reads it once per row). */
let views: { buffer: ArrayBuffer; sums: Float64Array; counters: Int32Array; levels: Float64Array } | undefined;
function stateViews(memory: ArrayBuffer): NonNullable<typeof views> {
  if (views?.buffer !== memory) {
    views = { buffer: memory, sums: new Float64Array(memory, ORDERED_STATE_AT, 2), counters: new Int32Array(memory, K, 2), levels: new Float64Array(memory, LEVELS, 33) };
  }
  return views;
}

/** The template's emitReset, in memory: an empty sum (the levels need no clearing: the counter says which hold sums). */
export function orderedReset(memory: ArrayBuffer): void {
  const v = stateViews(memory);
  v.sums.fill(0);
  v.counters.fill(0);
}

/** The template's emitResult from the state in memory: pairwise's open block then its levels, lowest first; Dot2's p + s. */
export function orderedResult(memory: ArrayBuffer, accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32'): number {
  const fl = arithmetic === 'f32' ? Math.fround : (v: number): number => v;
  const { sums, counters, levels } = stateViews(memory);
  if (accumulation === 'dot2') return fl(sums[0]! + sums[1]!);
  let sum = sums[0]!;
  // counters: [k, level counter] (bytes 16 and 20)
  for (let c = counters[1]!, l = 0; c !== 0; c >>>= 1, l++) if ((c & 1) !== 0) sum = fl(levels[l]! + sum);
  return sum;
}
