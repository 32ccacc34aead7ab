/**
 * Building blocks of the generated WebAssembly kernels: local allocation, the operand readers' set-up, and the
 * counted SIMD loop every vector kernel runs.
 * @module
 */
import { F64, I32, V128, op, SIMD, type FunctionSpec, type ValueType } from './wasm-encoder.js';
import { decoderLocals, setDecoderConstants, type WasmStorage } from './wasm-storage.js';

/** Parameters and locals of one function, by index. */
export class WasmLocals {
  private readonly params: ValueType[] = [];
  private readonly locals: ValueType[] = [];
  private frozen = false;

  /** A new parameter (all parameters before the first local). */
  param(t: ValueType): number {
    if (this.frozen) throw new Error('modprec: wasm parameters after locals');
    this.params.push(t);
    return this.params.length - 1;
  }

  /** A new local. */
  local(t: ValueType): number {
    this.frozen = true;
    this.locals.push(t);
    return this.params.length + this.locals.length - 1;
  }

  /** `count` consecutive locals; the first index. */
  locals_(t: ValueType, count: number): number {
    const first = this.params.length + this.locals.length;
    for (let k = 0; k < count; k++) this.local(t);
    return first;
  }

  /** The function with this signature and `body`. */
  function(exportName: string, results: readonly ValueType[], body: readonly number[]): FunctionSpec {
    return { exportName, params: [...this.params], results, locals: [...this.locals], body };
  }
}

/** A staged operand as a kernel reads it: its pointer parameter, scale (f64x2 local, or none) and decoder. */
export interface WasmOperand {
  readonly storage: WasmStorage;
  /** Pointer parameter (byte address of the staged chunk), advanced by the loop. */
  readonly pointer: number;
  /** Scale parameter (f64). */
  readonly scaleParam: number;
  /** Local holding the scale as f64x2, or -1 when the operand is unscaled. */
  readonly scale: number;
  /** Decoder constant locals. */
  readonly constants: readonly number[];
}

/** Declares an operand's parameters (pointer, scale) — call for every operand before any local. */
export function operandParams(l: WasmLocals, storage: WasmStorage): { storage: WasmStorage; pointer: number; scaleParam: number } {
  return { storage, pointer: l.param(I32), scaleParam: l.param(F64) };
}

/**
 * Allocates an operand's locals; `scaled` when its values must be multiplied by the scale; `lanes` 'f32' adds the
 * scratch locals of the storage's binary32 read ({@link WasmStorage.scratch4}).
 */
export function operandLocals(l: WasmLocals, p: { storage: WasmStorage; pointer: number; scaleParam: number }, scaled: boolean, lanes: 'f64' | 'f32' = 'f64'): WasmOperand {
  const scale = scaled ? l.local(V128) : -1;
  const n = decoderLocals(p.storage) + (lanes === 'f32' ? p.storage.scratch4 ?? 0 : 0);
  const first = n > 0 ? l.locals_(V128, n) : 0;
  return { ...p, scale, constants: Array.from({ length: n }, (_, k) => first + k) };
}

/**
 * Instructions run once before the loop: the scale splat (f64x2; f32x4 of the scale rounded to binary32, as the
 * JavaScript f32 arithmetic converts it, for {@link load4}) and the decoder constants.
 */
export function operandSetup(o: WasmOperand, lanes: 'f64' | 'f32' = 'f64'): number[] {
  return [
    ...(o.scale >= 0 ? [...op.get(o.scaleParam), ...LANES[lanes].splat, ...op.set(o.scale)] : []),
    ...(o.constants.length > 0 ? setDecoderConstants(o.storage, o.constants[0]!) : []),
  ];
}

/** Instructions leaving the f64x2 of elements 2k, 2k + 1 (of the current step) on the stack, scaled. */
export function load2(o: WasmOperand, k: number): number[] {
  const code = o.storage.load2(o.pointer, 2 * k * o.storage.bytes, o.constants);
  return o.scale >= 0 ? [...code, ...op.get(o.scale), ...op.simd(SIMD.f64x2Mul)] : code;
}

/**
 * Instructions leaving the f32x4 of elements 4k … 4k + 3 (of the current step) on the stack for fp32 arithmetic:
 * each read rounded to binary32, then multiplied by the binary32 scale (one rounding), as the JavaScript f32
 * arithmetic reads a scaled element. The operand was set up by `operandSetup(o, 'f32')`; its storage has load4.
 */
export function load4(o: WasmOperand, k: number): number[] {
  const code = o.storage.load4!(o.pointer, 4 * k * o.storage.bytes, o.constants);
  return o.scale >= 0 ? [...code, ...op.get(o.scale), ...op.simd(SIMD.f32x4Mul)] : code;
}

/** `for (i = 0; i < n; i += step) body` (i an i32 local, n an i32 local or parameter). */
export function countLoop(i: number, n: number, step: number, body: readonly number[]): number[] {
  return [
    ...op.i32(0), ...op.set(i), ...op.block(), ...op.loop(),
    ...op.get(i), ...op.get(n), ...op.i32GeS(), ...op.brIf(1),
    ...body,
    ...op.get(i), ...op.i32(step), ...op.i32Add(), ...op.set(i),
    ...op.br(0), ...op.end(), ...op.end(),
  ];
}

/**
 * `for (i = 0; i < n; i += 8) { body; pointers += 8 elements }` — n a multiple of 8 (the staging pads).
 * @param i - an i32 local
 * @param n - the i32 count parameter
 */
export function stepLoop(i: number, n: number, pointers: readonly { pointer: number; storage: WasmStorage }[], body: readonly number[]): number[] {
  return countLoop(i, n, 8, [
    ...body,
    ...pointers.flatMap((p) => [...op.get(p.pointer), ...op.i32(8 * p.storage.bytes), ...op.i32Add(), ...op.set(p.pointer)]),
  ]);
}

/**
 * What a kernel's 8-element step is made of in each arithmetic: four f64x2 (fp64: {@link load2}, f64x2 opcodes)
 * or two f32x4 (fp32: {@link load4}, f32x4 opcodes, every operation one IEEE binary32 rounding). Vector k of a step
 * holds elements 8t + k·width … 8t + k·width + width − 1, so lane j of the concatenated vectors is element 8t + j
 * in both: the partial sums of a reduction are the same eight in the same order.
 */
export interface Lanes {
  readonly name: 'f64' | 'f32';
  /** Vectors per step of 8 elements. */
  readonly vectors: 2 | 4;
  /** Instructions leaving vector k of the current step of `o` on the stack, scaled. */
  load(o: WasmOperand, k: number): number[];
  /** Instructions turning the f64 on the stack into a splat (fp32: rounded to binary32 first, as Math.fround). */
  readonly splat: readonly number[];
  /** SIMD opcodes. */
  readonly add: number;
  readonly mul: number;
  readonly abs: number;
  readonly neg: number;
}

/** The lanes of fp64 and fp32 arithmetic. */
export const LANES: Readonly<Record<'f64' | 'f32', Lanes>> = {
  f64: { name: 'f64', vectors: 4, load: load2, splat: op.simd(SIMD.f64x2Splat), add: SIMD.f64x2Add, mul: SIMD.f64x2Mul, abs: 0xec, neg: SIMD.f64x2Neg },
  f32: { name: 'f32', vectors: 2, load: load4, splat: [...op.f32DemoteF64(), ...op.simd(SIMD.f32x4Splat)], add: SIMD.f32x4Add, mul: SIMD.f32x4Mul, abs: SIMD.f32x4Abs, neg: 0xe1 /* f32x4.neg */ },
};
