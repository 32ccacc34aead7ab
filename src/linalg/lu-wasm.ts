/**
 * The trailing update of the panel-blocked LU (./lu-blocked.ts) in WebAssembly SIMD: after a panel of columns
 * k0 … k1 − 1 is factorised, every later column j is updated with the panel's multipliers,
 *
 *     for l = k0 … k1 − 1:  u = a[l, j];  a[l+1 …, j] −= a[l+1 …, l]·u      (skipped when u = 0)
 *
 * — the O(n³) part of the factorisation — and, one multiplier column at a time, the updates inside the panel. Each update is a multiply and a subtract of the array's format (f64x2 or
 * f32x4: two lanes or four), both rounded, in the order of the JavaScript sweep, so the factors are the same bits.
 * As there, four multiplier columns are applied at a time to the rows below their small triangle (one load and one
 * store of a[i, j] for four updates) when all four u are non-zero; a zero u takes the column-by-column order.
 * Panels holding a zero pivot take the JavaScript trailing update (their skipped columns need the per-column flags).
 *
 * The matrix lives in a memory of its own (not the kernels' shared staging memory): it is factorised in place
 * there, so the JavaScript parts of the sweep work on a typed array over the same bytes.
 * @module
 */
import { encodeModule, F32, F64, I32, V128, op, type ValueType } from '../backends/wasm/wasm-encoder.js';
import { wasmExports, wasmSimdAvailable } from '../backends/wasm/wasm-runtime.js';
import { WasmLocals } from '../backends/wasm/wasm-function.js';

/** Applies multiplier columns k0 … k1 − 1 to columns j0 … j1 − 1 of the n×n matrix (see the module comment). */
export type LuUpdate = (n: number, k0: number, k1: number, j0: number, j1: number) => void;

/** Element formats of the sweep. */
export type LuKind = 'f32' | 'f64';

interface KindOps {
  readonly bytes: number;
  readonly lanes: number;
  readonly scalar: ValueType;
  readonly load: number[];
  readonly store: number[];
  readonly sub: number;
  readonly mul: number;
  readonly ne: number;
  readonly div: number;
  readonly zero: number[];
  readonly splat: number;
  readonly vsub: number;
  readonly vmul: number;
}

const OPS: Record<LuKind, KindOps> = {
  f64: { bytes: 8, lanes: 2, scalar: F64, load: [0x2b, 3, 0], store: [0x39, 3, 0], sub: 0xa1, mul: 0xa2, ne: 0x62, div: 0xa3, zero: op.f64(0), splat: 0x14, vsub: 0xf1, vmul: 0xf2 },
  f32: { bytes: 4, lanes: 4, scalar: F32, load: [0x2a, 2, 0], store: [0x38, 2, 0], sub: 0x93, mul: 0x94, ne: 0x5c, div: 0x95, zero: [0x43, 0, 0, 0, 0], splat: 0x13, vsub: 0xe5, vmul: 0xe6 },
};

const I32_AND = 0x71, I32_GE_S = 0x4e;
const V_LOAD = [0xfd, 0x00, 0, 0], V_STORE = [0xfd, 0x0b, 0, 0];

/** The sum of two i32 address computations. */
const add = (a: number[], b: number[]): number[] => [...a, ...b, ...op.i32Add()];

/** The locals {@link rowUpdates} works with: the byte offsets, the temporaries, the target and term columns. */
interface RowLocals {
  readonly p: number;
  readonly pv: number;
  readonly pe: number;
  readonly t: number;
  readonly ts: number;
  /** Byte address of the column updated. */
  readonly dst: number;
  /** Byte addresses of the term columns, their multipliers u_m (scalar) and splats v_m. */
  readonly columns: readonly number[];
  readonly u: readonly number[];
  readonly v: readonly number[];
}

/**
 * dst[r … e − 1] −= Σ_m column_m[r … e − 1]·u_m over the terms, in order (each a multiply and a subtract, rounded):
 * f32x4/f64x2 steps, then single elements. `from` and `to` push the row indices r and e.
 */
function rowUpdates(k: KindOps, loc: RowLocals, from: number[], to: number[], terms: readonly number[]): number[] {
  const B = k.bytes;
  const g = op.get, s = op.set;
  const { p, pv, pe, t, ts, dst } = loc;
  return [
    ...from, ...op.i32(B), ...op.i32Mul(), ...s(p),
    ...to, ...op.i32(B), ...op.i32Mul(), ...s(pe),
    // pv = p + ((e − r) rounded down to whole vectors)·B
    ...g(p), ...to, ...from, ...op.i32Sub(), ...op.i32(-k.lanes), I32_AND, ...op.i32(B), ...op.i32Mul(), ...op.i32Add(), ...s(pv),
    ...op.block(), ...op.loop(),
    ...g(p), ...g(pv), I32_GE_S, ...op.brIf(1),
    ...add(g(dst), g(p)), ...V_LOAD, ...s(t),
    ...terms.flatMap((m) => [...g(t), ...add(g(loc.columns[m]!), g(p)), ...V_LOAD, ...g(loc.v[m]!), ...op.simd(k.vmul), ...op.simd(k.vsub), ...s(t)]),
    ...add(g(dst), g(p)), ...g(t), ...V_STORE,
    ...g(p), ...op.i32(16), ...op.i32Add(), ...s(p),
    ...op.br(0), ...op.end(), ...op.end(),
    ...op.block(), ...op.loop(),
    ...g(p), ...g(pe), I32_GE_S, ...op.brIf(1),
    ...add(g(dst), g(p)), ...k.load, ...s(ts),
    ...terms.flatMap((m) => [...g(ts), ...add(g(loc.columns[m]!), g(p)), ...k.load, ...g(loc.u[m]!), k.mul, k.sub, ...s(ts)]),
    ...add(g(dst), g(p)), ...g(ts), ...k.store,
    ...g(p), ...op.i32(B), ...op.i32Add(), ...s(p),
    ...op.br(0), ...op.end(), ...op.end(),
  ];
}

/**
 * The module's one function: update(n, k0, k1, j0, j1) applies the multiplier columns k0 … k1 − 1 to the columns
 * j0 … j1 − 1 (rows below each multiplier's own row), the matrix at byte 0, column-major with leading dimension n.
 */
function buildModule(kind: LuKind): Uint8Array {
  const k = OPS[kind];
  const B = k.bytes;
  const L = new WasmLocals();
  const n = L.param(I32), k0 = L.param(I32), k1 = L.param(I32), j0 = L.param(I32), j1 = L.param(I32);
  const j = L.local(I32), jb = L.local(I32), colBytes = L.local(I32), l = L.local(I32), lb = L.local(I32);
  const p = L.local(I32), pv = L.local(I32), pe = L.local(I32);
  const cb = [L.local(I32), L.local(I32), L.local(I32), L.local(I32)];
  const u = [L.local(k.scalar), L.local(k.scalar), L.local(k.scalar), L.local(k.scalar)];
  const v = [L.local(V128), L.local(V128), L.local(V128), L.local(V128)];
  const t = L.local(V128), ts = L.local(k.scalar);
  const g = op.get, s = op.set;
  const nonZero = (x: number): number[] => [...g(x), ...k.zero, k.ne];

  const loc: RowLocals = { p, pv, pe, t, ts, dst: jb, columns: cb, u, v };
  const rows = (from: number[], terms: readonly number[]): number[] => rowUpdates(k, loc, from, g(n), terms);
  /** u_m = a[l + m, j], its splat, and the address of column l + m. */
  const takeU = (m: number): number[] => [
    ...add(g(lb), g(jb)), ...k.load.slice(0, 2), m * B, ...s(u[m]!),
    ...g(u[m]!), ...op.simd(k.splat), ...s(v[m]!),
  ];
  /** a[l + r, j] −= a[l + r, l + m]·u_m (one element of the small triangle). */
  const triangle = (m: number, r: number): number[] => [
    ...add(g(lb), g(jb)),
    ...add(g(lb), g(jb)), ...k.load.slice(0, 2), r * B,
    ...add(g(lb), g(cb[m]!)), ...k.load.slice(0, 2), r * B, ...g(u[m]!), k.mul, k.sub,
    ...k.store.slice(0, 2), r * B,
  ];
  const lPlus = (d: number): number[] => [...g(l), ...op.i32(d), ...op.i32Add()];
  const setColumns = (): number[] => [0, 1, 2, 3].flatMap((m) => [...g(l), ...op.i32(m), ...op.i32Add(), ...g(colBytes), ...op.i32Mul(), ...s(cb[m]!)]);

  const body = [
    ...g(n), ...op.i32(B), ...op.i32Mul(), ...s(colBytes),
    ...g(j0), ...s(j),
    ...op.block(), ...op.loop(),
    ...g(j), ...g(j1), I32_GE_S, ...op.brIf(1),
    ...g(j), ...g(colBytes), ...op.i32Mul(), ...s(jb),
    ...g(k0), ...s(l),
    // Four multiplier columns at a time.
    ...op.block(), ...op.loop(),
    ...lPlus(3), ...g(k1), I32_GE_S, ...op.brIf(1),
    ...g(l), ...op.i32(B), ...op.i32Mul(), ...s(lb),
    ...setColumns(),
    // lb is l's row offset; (l + r, column) addresses are lb + column base + r·B. jb/cb are column bases.
    ...takeU(0), ...nonZero(u[0]!), ...op.if(), ...triangle(0, 1), ...triangle(0, 2), ...triangle(0, 3), ...op.end(),
    ...takeU(1), ...nonZero(u[1]!), ...op.if(), ...triangle(1, 2), ...triangle(1, 3), ...op.end(),
    ...takeU(2), ...nonZero(u[2]!), ...op.if(), ...triangle(2, 3), ...op.end(),
    ...takeU(3),
    ...nonZero(u[0]!), ...nonZero(u[1]!), I32_AND, ...nonZero(u[2]!), I32_AND, ...nonZero(u[3]!), I32_AND,
    ...op.if(), ...rows(lPlus(4), [0, 1, 2, 3]), ...op.else(),
    ...[0, 1, 2, 3].flatMap((m) => [...nonZero(u[m]!), ...op.if(), ...rows(lPlus(4), [m]), ...op.end()]),
    ...op.end(),
    ...lPlus(4), ...s(l),
    ...op.br(0), ...op.end(), ...op.end(),
    // The remaining columns of the panel one at a time.
    ...op.block(), ...op.loop(),
    ...g(l), ...g(k1), I32_GE_S, ...op.brIf(1),
    ...g(l), ...op.i32(B), ...op.i32Mul(), ...s(lb),
    ...g(l), ...g(colBytes), ...op.i32Mul(), ...s(cb[0]!),
    ...takeU(0),
    ...nonZero(u[0]!), ...op.if(), ...rows(lPlus(1), [0]), ...op.end(),
    ...lPlus(1), ...s(l),
    ...op.br(0), ...op.end(), ...op.end(),
    ...g(j), ...op.i32(1), ...op.i32Add(), ...s(j),
    ...op.br(0), ...op.end(), ...op.end(),
  ];
  return encodeModule([L.function('update', [], body), backward(k)], 1);
}

/**
 * backward(n): x := U⁻¹·x for the upper triangle of the n×n matrix at byte 0 and x right after it (its column n):
 * column by column from the last, x_j := x_j / u_jj, then x[0 … j − 1] −= U[0 … j − 1, j]·x_j (skipped for x_j = 0).
 */
function backward(k: KindOps): ReturnType<WasmLocals['function']> {
  const B = k.bytes;
  const L = new WasmLocals();
  const n = L.param(I32);
  const j = L.local(I32), jb = L.local(I32), xb = L.local(I32), p = L.local(I32), pv = L.local(I32), pe = L.local(I32);
  const u = L.local(k.scalar), v = L.local(V128), t = L.local(V128), ts = L.local(k.scalar);
  const g = op.get, s = op.set;
  const body = [
    ...g(n), ...g(n), ...op.i32Mul(), ...op.i32(B), ...op.i32Mul(), ...s(xb),
    ...g(n), ...op.i32(1), ...op.i32Sub(), ...s(j),
    ...op.block(), ...op.loop(),
    ...g(j), ...op.i32(0), 0x48 /* i32.lt_s */, ...op.brIf(1),
    ...g(j), ...g(n), ...op.i32Mul(), ...op.i32(B), ...op.i32Mul(), ...s(jb),
    // x_j / u_jj
    ...add(g(xb), [...g(j), ...op.i32(B), ...op.i32Mul()]),
    ...add(g(xb), [...g(j), ...op.i32(B), ...op.i32Mul()]), ...k.load,
    ...add(g(jb), [...g(j), ...op.i32(B), ...op.i32Mul()]), ...k.load,
    k.div, ...op.tee(u), ...k.store,
    ...g(u), ...k.zero, k.ne, ...op.if(),
    ...g(u), ...op.simd(k.splat), ...s(v),
    ...rowUpdates(k, { p, pv, pe, t, ts, dst: xb, columns: [jb], u: [u], v: [v] }, op.i32(0), g(j), [0]),
    ...op.end(),
    ...g(j), ...op.i32(1), ...op.i32Sub(), ...s(j),
    ...op.br(0), ...op.end(), ...op.end(),
  ];
  return L.function('backward', [], body);
}

/** A memory of its own for the factorisation (grown to the largest matrix factorised so far). */
let memory: WebAssembly.Memory | undefined;

/** The functions over the workspace memory, and a typed array over its first elements. */
export interface LuWorkspace {
  /** `count` elements of the kind at byte 0 (made after any growth: use it before the next workspace call). */
  readonly a: Float32Array | Float64Array;
  readonly update: LuUpdate;
  /** x := U⁻¹·x, x being column n of the memory (the elements n² … n² + n − 1). */
  readonly backward: (n: number) => void;
}

/**
 * Whoever last wrote the matrix into the workspace (a token: a factorisation or a solver); a solver finding another
 * owner copies its factors in again.
 */
export const workspaceOwner: { current: object | undefined } = { current: undefined };

/**
 * The WebAssembly functions for arrays of `kind` over a workspace memory of at least `count` elements; undefined
 * where the engine has no SIMD128 or refuses to grow the memory that far (beyond 4 GiB, or less where memory is short).
 * @throws {@link ModprecError} `CODE_GENERATION_BLOCKED` when a Content-Security-Policy forbids compiling WebAssembly
 */
export function wasmLuWorkspace(kind: LuKind, count: number): LuWorkspace | undefined {
  if (!wasmSimdAvailable()) return undefined;
  const bytes = count * OPS[kind].bytes;
  memory ??= new WebAssembly.Memory({ initial: 1 });
  const have = memory.buffer.byteLength;
  if (bytes > have) {
    // Refused growth was the engine's bare RangeError out of luFactor / luSolve (n ≥ 23171 in fp64 passes 4 GiB).
    try { memory.grow(Math.ceil((bytes - have) / 65536)); } catch { return undefined; }
  }
  const exports = wasmExports(`lu-${kind}`, 'the LU factorisation', () => buildModule(kind), memory);
  const a = kind === 'f64' ? new Float64Array(memory.buffer, 0, count) : new Float32Array(memory.buffer, 0, count);
  return { a, update: exports.update as LuUpdate, backward: exports.backward as (n: number) => void };
}

/**
 * Where an LU factorisation or solve runs: `'cpu'` (default) picks WebAssembly SIMD where the engine has it.
 * @group Kernels
 */
export interface LuOptions {
  /** `'cpu'` (default: WebAssembly where available, else JavaScript), `'wasm'` or `'js'`; `'gpu'` is refused. */
  readonly backend?: 'cpu' | 'wasm' | 'js';
}
