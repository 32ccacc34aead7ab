/**
 * Runs the panel-blocked LU and the solves with its factors on the backend the options ask for: JavaScript alone, or
 * with the WebAssembly SIMD updates (./lu-wasm.ts) — the same operations in the same order, so the same bits.
 * @module
 */
import { fail } from '../core/errors.js';
import { chooseBackend } from '../backends/backend.js';
import { wasmCompilationBlocked, wasmSimdAvailable } from '../backends/wasm/wasm-runtime.js';
import { runWasm } from '../../kernels/shared/run-wasm.js';
import { blockedLu, LU_PANEL } from './lu-blocked.js';
import { wasmLuWorkspace, workspaceOwner, type LuKind, type LuOptions } from './lu-wasm.js';

/** A packed n×n array of either kind. */
type Packed = Float32Array | Float64Array;

/** Factors of a packed n×n copy: the array (a fresh typed array, not a view of WebAssembly memory), pivots, first zero pivot. */
export interface PackedLu<A> {
  readonly a: A;
  readonly pivots: Int32Array;
  readonly firstZeroPivot: number;
}

/** 'wasm' or 'js' for the options (checked before any work: a typed error naming options.backend). */
function resolveBackend(options: LuOptions | undefined): 'cpu' | 'wasm' | 'js' {
  const backend = chooseBackend(options);
  if (backend === 'gpu') fail('INVALID_OPTION', 'options.backend', "the LU factorisation and solve run on the CPU: 'cpu', 'wasm' or 'js'", backend);
  if (backend === 'wasm' && !wasmSimdAvailable()) fail('INVALID_OPTION', 'options.backend', 'this JavaScript engine has no WebAssembly SIMD128');
  return backend;
}

/** Whether to try WebAssembly first. */
function tryWasm(backend: 'cpu' | 'wasm' | 'js'): boolean {
  return backend === 'wasm' || (backend === 'cpu' && wasmSimdAvailable() && !wasmCompilationBlocked());
}

/**
 * Copies column-major `data` (leading dimension ld) into a packed array of `kind` and factorises it.
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.backend` (checked before any work)
 */
export function factorPacked(kind: 'f64', n: number, ld: number, data: ArrayLike<number>, options?: LuOptions): PackedLu<Float64Array>;
export function factorPacked(kind: 'f32', n: number, ld: number, data: ArrayLike<number>, options?: LuOptions): PackedLu<Float32Array>;
export function factorPacked(kind: LuKind, n: number, ld: number, data: ArrayLike<number>, options?: LuOptions): PackedLu<Packed> {
  const backend = resolveBackend(options);
  const pivots = new Int32Array(n);
  const copyIn = (a: Packed): void => {
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) a[i + j * n] = data[i + j * ld]!;
  };
  if (tryWasm(backend)) {
    let result: PackedLu<Packed> | undefined;
    const ran = runWasm(backend, () => {
      const w = wasmLuWorkspace(kind, n * n);
      if (w === undefined) return refuseWorkspace(backend, 'A', kind, n * n);
      workspaceOwner.current = undefined;
      copyIn(w.a);
      const firstZeroPivot = blockedLu(kind)(w.a, n, pivots, LU_PANEL, w.update);
      const a = packedArray(kind, n * n);
      a.set(w.a);
      result = { a, pivots, firstZeroPivot };
    });
    if (ran && result !== undefined) return result;
  }
  const a = packedArray(kind, n * n);
  copyIn(a);
  return { a, pivots, firstZeroPivot: blockedLu(kind)(a, n, pivots, LU_PANEL) };
}

/**
 * A solver x = U⁻¹·L⁻¹·P·b with packed factors of `kind`: b is rounded to the kind, the substitutions run column by
 * column in the kind (each update a multiply and a subtract, each rounded; a zero x_j contributes nothing), and x is
 * returned as doubles. On WebAssembly the factors are copied into its memory once and stay there between solves
 * while nothing else writes it (iterative refinement solves many times with one factorisation).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.backend`
 */
export function packedSolver(kind: LuKind, factors: { readonly n: number; readonly a: Packed; readonly pivots: Int32Array }, options?: LuOptions): (b: Float64Array) => Float64Array {
  const backend = resolveBackend(options);
  const { n, a, pivots } = factors;
  const permuted = (b: Float64Array): Packed => {
    const x = kind === 'f64' ? Float64Array.from(b) : Float32Array.from(b);
    for (let k = 0; k < n; k++) {
      const p = pivots[k]!;
      if (p !== k) { const t = x[k]!; x[k] = x[p]!; x[p] = t; }
    }
    return x;
  };
  const token = {};
  let useWasm = tryWasm(backend);
  return (b) => {
    if (useWasm) {
      let out: Float64Array | undefined;
      const ran = runWasm(backend, () => {
        const w = wasmLuWorkspace(kind, n * (n + 1));
        if (w === undefined) return refuseWorkspace(backend, 'factors', kind, n * (n + 1));
        if (workspaceOwner.current !== token) { w.a.set(a); workspaceOwner.current = token; }
        w.a.set(permuted(b), n * n);
        w.update(n, 0, n, n, n + 1);     // x := L⁻¹·x: x is column n, L's columns the multipliers
        w.backward(n);
        out = Float64Array.from(w.a.subarray(n * n, n * n + n));
      });
      if (ran && out !== undefined) return out;
      useWasm = false;
    }
    return jsSolve(kind, n, a, permuted(b));
  };
}

/**
 * A packed array of `kind` for the factors of A.
 * @throws {@link ModprecError} `INVALID_SIZE` naming `A` when the engine refuses the allocation (its bare RangeError
 *   before)
 */
function packedArray(kind: LuKind, length: number): Packed {
  try {
    return kind === 'f64' ? new Float64Array(length) : new Float32Array(length);
  } catch {
    return fail('INVALID_SIZE', 'A', 'has factors too large to allocate', length);
  }
}

/**
 * A workspace WebAssembly cannot hold: `'cpu'` goes on in JavaScript (the same bits), `'wasm'` was asked for and is
 * refused with a typed error before any work.
 * @throws {@link ModprecError} `INVALID_SIZE` naming `parameter` for backend `'wasm'`
 */
function refuseWorkspace(backend: 'cpu' | 'wasm' | 'js', parameter: string, kind: LuKind, count: number): void {
  if (backend === 'wasm') {
    fail('INVALID_SIZE', parameter, `needs ${count * (kind === 'f64' ? 8 : 4)} bytes of WebAssembly memory, more than the engine grants (at most 4 GiB); { backend: 'js' } runs it`, count);
  }
}

/** The substitutions in JavaScript, in the WebAssembly order and roundings. */
function jsSolve(kind: LuKind, n: number, a: Packed, x: Packed): Float64Array {
  const round = kind === 'f32' ? Math.fround : (v: number): number => v;
  for (let j = 0; j < n; j++) {
    const xj = x[j]!;
    if (xj === 0) continue;
    for (let i = j + 1; i < n; i++) x[i] = x[i]! - round(a[i + j * n]! * xj);
  }
  for (let j = n - 1; j >= 0; j--) {
    x[j] = x[j]! / a[j + j * n]!;
    const xj = x[j]!;   // as stored (an assignment's value would be the unrounded quotient)
    if (xj === 0) continue;
    for (let i = 0; i < j; i++) x[i] = x[i]! - round(a[i + j * n]! * xj);
  }
  return Float64Array.from(x);
}
