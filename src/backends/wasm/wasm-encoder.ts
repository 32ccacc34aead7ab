/**
 * A small WebAssembly binary encoder: enough of the module format (one imported memory, function types,
 * functions with locals, exports) and of the instruction set (control, i32/f64/f32 scalar, SIMD128) for modprec's
 * kernels, which are generated per signature at run time — as the JavaScript kernels are — instead of being built
 * by a toolchain. No dependency, and it runs in Node and in browsers alike.
 * Reference: the WebAssembly core specification 2.0, §5 (binary format); SIMD opcodes from its §5.4.8.
 * @module
 */

/** Value types. */
export const I32 = 0x7f, F32 = 0x7d, F64 = 0x7c, V128 = 0x7b;
/** A value type byte. */
export type ValueType = typeof I32 | typeof F32 | typeof F64 | typeof V128;

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (32-bit range). */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}

/** A length-prefixed vector of encoded items. */
function vec(items: readonly number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/** A UTF-8 name. */
function name(s: string): number[] {
  const bytes = [...new TextEncoder().encode(s)];
  return [...uleb(bytes.length), ...bytes];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

/** One function of a module: its signature, extra locals (after the parameters) and body (without the final `end`). */
export interface FunctionSpec {
  readonly exportName: string;
  readonly params: readonly ValueType[];
  readonly results: readonly ValueType[];
  readonly locals: readonly ValueType[];
  readonly body: readonly number[];
}

/**
 * The bytes of a module that imports its memory as `env.memory` (at least `minPages` pages of 64 KiB) and exports
 * the given functions.
 */
export function encodeModule(functions: readonly FunctionSpec[], minPages: number): Uint8Array {
  const types = functions.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  const imports = vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(minPages)]]);
  const funcs = vec(functions.map((_, i) => uleb(i)));
  const exports = vec(functions.map((f, i) => [...name(f.exportName), 0x00, ...uleb(i)]));
  const codes = vec(functions.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]));
    const body = [...locals, ...f.body, 0x0b];
    return [...uleb(body.length), ...body];
  }));
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)), ...section(2, imports), ...section(3, funcs), ...section(7, exports), ...section(10, codes),
  ]);
}

/** Instructions, as byte arrays to concatenate (`op.x(...)`). Memory offsets are in bytes. */
export const op = {
  block: (): number[] => [0x02, 0x40],
  loop: (): number[] => [0x03, 0x40],
  if: (): number[] => [0x04, 0x40],
  else: (): number[] => [0x05],
  end: (): number[] => [0x0b],
  br: (depth: number): number[] => [0x0c, ...uleb(depth)],
  brIf: (depth: number): number[] => [0x0d, ...uleb(depth)],
  get: (l: number): number[] => [0x20, ...uleb(l)],
  set: (l: number): number[] => [0x21, ...uleb(l)],
  tee: (l: number): number[] => [0x22, ...uleb(l)],
  drop: (): number[] => [0x1a],
  i32: (v: number): number[] => [0x41, ...sleb(v)],
  f64: (v: number): number[] => { const b = new Uint8Array(new Float64Array([v]).buffer); return [0x44, ...b]; },
  i32Add: (): number[] => [0x6a],
  i32Sub: (): number[] => [0x6b],
  i32Mul: (): number[] => [0x6c],
  i32Shl: (): number[] => [0x74],
  i32LtS: (): number[] => [0x48],
  i32GeS: (): number[] => [0x4e],
  i32Eqz: (): number[] => [0x45],
  f64Load: (offset = 0): number[] => [0x2b, 3, ...uleb(offset)],
  f64Store: (offset = 0): number[] => [0x39, 3, ...uleb(offset)],
  f64Add: (): number[] => [0xa0],
  f64Mul: (): number[] => [0xa2],
  f32DemoteF64: (): number[] => [0xb6],
  /** A SIMD instruction by its opcode after the 0xfd prefix. */
  simd: (code: number, ...immediates: number[]): number[] => [0xfd, ...uleb(code), ...immediates],
  /** A SIMD memory instruction with alignment log2 `align` and byte offset. */
  simdMem: (code: number, align: number, offset = 0): number[] => [0xfd, ...uleb(code), align, ...uleb(offset)],
};

/** SIMD opcodes used (WebAssembly 2.0, §5.4.8). */
export const SIMD = {
  load: 0x00, load8x8s: 0x01, load16x4s: 0x03, load16x4u: 0x04, load32x2s: 0x05, load16Splat: 0x08,
  store: 0x0b, i32x4Splat: 0x11, f64x2Splat: 0x14, f64x2ExtractLane: 0x21, i32x4GeU: 0x40,
  and: 0x4e, or: 0x50, bitselect: 0x52, load32Zero: 0x5c, load64Zero: 0x5d,
  f32x4DemoteF64x2Zero: 0x5e, f64x2PromoteLowF32x4: 0x5f,
  i16x8ExtendLowI8x16s: 0x87, i32x4ExtendLowI16x8s: 0xa7, i32x4ExtendLowI16x8u: 0xa9, i32x4Shl: 0xab,
  f32x4Splat: 0x13, f32x4Abs: 0xe0, f32x4Add: 0xe4, f32x4Mul: 0xe6, f32x4ConvertI32x4s: 0xfa, f64x2Neg: 0xed, f64x2Add: 0xf0, f64x2Sub: 0xf1, f64x2Mul: 0xf2, f64x2Div: 0xf3,
  f64x2ConvertLowI32x4s: 0xfe,
} as const;
