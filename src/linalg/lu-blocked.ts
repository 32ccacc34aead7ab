/**
 * The right-looking LU with partial pivoting in panels (LAPACK's GETRF blocking), in place on a packed
 * column-major typed array of either precision. It performs the unblocked algorithm's operations on every element
 * in the same order (each update stored, so rounded to the array's format, at once), so its factors are bit for bit
 * those of the unblocked loop; only the memory order differs: each trailing column is swept once per panel instead of
 * once per pivot, while the panel's multipliers stay in cache. Every update a − l·u is a multiply and a subtract in the
 * array's format, each rounded (for fp32: the product rounded to fp32 first — what fp32 SIMD lanes compute — so the
 * WebAssembly updates of ./lu-wasm.ts, passed as `update`, give the same bits).
 * @module
 */
import { generatedFunction } from '../core/generated-function.js';
import type { LuUpdate } from './lu-wasm.js';

/**
 * Factorises `a` (n×n, packed column-major) in place; writes `pivots`; returns the first zero pivot or −1. `update`,
 * when given, performs the updates inside each panel and the trailing update of a panel without a zero pivot on the
 * same bytes (./lu-wasm.ts).
 */
export type InPlaceLu = (a: Float32Array | Float64Array, n: number, pivots: Int32Array, panel: number, update?: LuUpdate) => number;

// One source, compiled once per array type, so each copy stays monomorphic in the engine.
const SOURCE = `
  let firstZero = -1;
  const zero = new Uint8Array(n);
  for (let k0 = 0; k0 < n; k0 += panel) {
    const k1 = Math.min(n, k0 + panel);
    for (let k = k0; k < k1; k++) {
      const kk = k * n;
      let p = k, best = Math.abs(a[k + kk]);
      for (let i = k + 1; i < n; i++) { const v = Math.abs(a[i + kk]); if (v > best) { best = v; p = i; } }
      pivots[k] = p;
      if (p !== k) for (let j = k0; j < k1; j++) { const t = a[k + j * n]; a[k + j * n] = a[p + j * n]; a[p + j * n] = t; }
      const pivot = a[k + kk];
      if (pivot === 0) { if (firstZero < 0) firstZero = k; zero[k] = 1; continue; }
      for (let i = k + 1; i < n; i++) a[i + kk] = a[i + kk] / pivot;
      if (update !== undefined) { update(n, k, k + 1, k + 1, k1); continue; }
      for (let j = k + 1; j < k1; j++) {
        const jj = j * n, u = a[k + jj];
        if (u === 0) continue;
        for (let i = k + 1; i < n; i++) a[i + jj] = a[i + jj] - MUL(a[i + kk] * u);
      }
    }
    for (let k = k0; k < k1; k++) {
      const p = pivots[k];
      if (p === k) continue;
      for (let j = 0; j < k0; j++) { const t = a[k + j * n]; a[k + j * n] = a[p + j * n]; a[p + j * n] = t; }
      for (let j = k1; j < n; j++) { const t = a[k + j * n]; a[k + j * n] = a[p + j * n]; a[p + j * n] = t; }
    }
    let panelZero = false;
    for (let k = k0; k < k1; k++) if (zero[k] === 1) panelZero = true;
    if (update !== undefined && !panelZero) { update(n, k0, k1, k1, n); continue; }
    for (let j = k1; j < n; j++) {
      const jj = j * n;
      let l = k0;
      // Four multiplier columns at a time: the small triangle (rows l+1 … l+3) first, in the unblocked order, which
      // fixes u0 … u3; then every row below takes the four updates in order, each rounded (ROUND) as a store would,
      // with one load and one store of a[i, j] instead of four.
      for (; l + 3 < k1; l += 4) {
        const go0 = zero[l] === 0, go1 = zero[l + 1] === 0, go2 = zero[l + 2] === 0, go3 = zero[l + 3] === 0;
        const c0 = l * n, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n;
        const u0 = go0 ? a[l + jj] : 0;
        if (u0 !== 0) { a[l + 1 + jj] = a[l + 1 + jj] - MUL(a[l + 1 + c0] * u0); a[l + 2 + jj] = a[l + 2 + jj] - MUL(a[l + 2 + c0] * u0); a[l + 3 + jj] = a[l + 3 + jj] - MUL(a[l + 3 + c0] * u0); }
        const u1 = go1 ? a[l + 1 + jj] : 0;
        if (u1 !== 0) { a[l + 2 + jj] = a[l + 2 + jj] - MUL(a[l + 2 + c1] * u1); a[l + 3 + jj] = a[l + 3 + jj] - MUL(a[l + 3 + c1] * u1); }
        const u2 = go2 ? a[l + 2 + jj] : 0;
        if (u2 !== 0) a[l + 3 + jj] = a[l + 3 + jj] - MUL(a[l + 3 + c2] * u2);
        const u3 = go3 ? a[l + 3 + jj] : 0;
        if (u0 !== 0 && u1 !== 0 && u2 !== 0 && u3 !== 0) {
          for (let i = l + 4; i < n; i++) {
            let t = a[i + jj];
            t = ROUND(t - MUL(a[i + c0] * u0));
            t = ROUND(t - MUL(a[i + c1] * u1));
            t = ROUND(t - MUL(a[i + c2] * u2));
            a[i + jj] = t - MUL(a[i + c3] * u3);
          }
        } else {
          if (u0 !== 0) for (let i = l + 4; i < n; i++) a[i + jj] = a[i + jj] - MUL(a[i + c0] * u0);
          if (u1 !== 0) for (let i = l + 4; i < n; i++) a[i + jj] = a[i + jj] - MUL(a[i + c1] * u1);
          if (u2 !== 0) for (let i = l + 4; i < n; i++) a[i + jj] = a[i + jj] - MUL(a[i + c2] * u2);
          if (u3 !== 0) for (let i = l + 4; i < n; i++) a[i + jj] = a[i + jj] - MUL(a[i + c3] * u3);
        }
      }
      for (; l < k1; l++) {
        if (zero[l] === 1) continue;
        const u = a[l + jj];
        if (u === 0) continue;
        const ll = l * n;
        for (let i = l + 1; i < n; i++) a[i + jj] = a[i + jj] - MUL(a[i + ll] * u);
      }
    }
  }
  return firstZero;`;

const compiled = new Map<string, InPlaceLu>();

/** The in-place blocked LU for arrays of one type (`f32`: Float32Array, `f64`: Float64Array), compiled on first use. */
export function blockedLu(kind: 'f32' | 'f64'): InPlaceLu {
  let f = compiled.get(kind);
  if (!f) {
    // ROUND is what storing into the array does: Math.fround for Float32Array, nothing for Float64Array.
    // MUL rounds a product to the format (exact products of fp32 values would otherwise stay fp64 in JavaScript).
    const round = kind === 'f32' ? 'Math.fround(' : '(';
    const source = SOURCE.replaceAll('ROUND(', round).replaceAll('MUL(', round);
    f = generatedFunction(`the ${kind} blocked LU`, ['a', 'n', 'pivots', 'panel', 'update'], source) as unknown as InPlaceLu;
    compiled.set(kind, f);
  }
  return f;
}

/** Panel width: 48 columns of multipliers (n·48 values) stay in a core's L2 cache for n in the thousands. */
export const LU_PANEL = 48;
