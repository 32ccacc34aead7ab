/**
 * Output views on the device (issue 14, item 3): every kernel that writes (GEMV's y, the updates' out, TRSV's x, ELL
 * SpMV's y) takes a strided view of a span — positive, negative and unit stride at an odd offset, in f64, f32, f16
 * and bf16 — and writes only the view's elements. The storage around each view (and, for 16-bit formats, the other
 * half of a shared word) holds NaN sentinels with distinct bit patterns, checked bit for bit after every kernel; the
 * view's elements must equal, bit for bit, what the same kernel writes into a packed output. Shared by the llvmpipe
 * run and the no-adapter run (host-resident arrays, MODPREC_GPU_BACKEND=none), so both paths are held to it.
 */
import { expect } from 'vitest';
import { range, colMajor, rowMajor, span, formats, vector, matrix, gemv, trsv, axpy, waxpby, scal, ellSpmv, ellFromMatrix, ellOperand, csrToEll, laplacianCsr } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { toDevice, deviceView, deviceMatrix, deviceMatrixView, toDeviceMatrix, toDeviceEll, deviceEllView, gpuUpdate, gpuGemv, gpuTrsv, gpuEllSpmv, type DeviceArray } from '../../src/backends/webgpu/index.js';
import { randomValues } from './gpu-test-helpers.js';

const STORAGE = { f64: formats.f64, f32: formats.f32, f16: formats.f16, bf16: formats.bf16 } as const;
type Name = keyof typeof STORAGE;
const NAMES = Object.keys(STORAGE) as Name[];

/** A 1-D range of `size` elements of NaN sentinels, each with its own payload. */
function sentinelRange(name: Name, size: number, arithmetic = formats.f32): Range<1, any> {
  const r = range(colMajor<1>({ size: [size], storage: STORAGE[name] as never, arithmetic }));
  const data = r.accessor.data as Float64Array | Float32Array | Uint16Array;
  const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4);
  for (let k = 0; k < size; k++) {
    if (name === 'f64') [words[2 * k], words[2 * k + 1]] = [k + 1, 0x7ff00000 | (k + 1)];
    else if (name === 'f32') words[k] = 0x7f800000 | (k + 1);
    else (data as Uint16Array)[k] = (name === 'f16' ? 0x7c00 : 0x7f80) | ((k % 100) + 1);
  }
  return r;
}

/** The view of `full` with offset `off`, increment `inc`, `n` elements, holding `values`. */
function viewOf(full: Range<1, any>, n: number, off: number, inc: number, values?: ArrayLike<number>): Range<1, any> {
  const a = full.accessor;
  const r = range(colMajor<1>({ size: [n], stride: inc, offset: off, storage: a.storage, arithmetic: a.arithmetic, data: a.data as never }));
  if (values) for (let i = 0; i < n; i++) a.storage.encode(a.data as never, r.accessor.linearIndex([i]), values[i]! as never);
  return r;
}

/** The stored values of a range, exactly. */
function stored(r: Range<any, any>): Float64Array {
  const a = r.accessor;
  const dims = a.size;
  if (dims.length === 1) return Float64Array.from({ length: dims[0]! }, (_, i) => a.storage.decode(a.data as never, a.linearIndex([i])) as number);
  return Float64Array.from({ length: dims[0]! * dims[1]! }, (_, k) => a.storage.decode(a.data as never, a.linearIndex([k % dims[0]!, Math.floor(k / dims[0]!)])) as number);
}

/** The bits of element e of words encoded in `name` (two words for f64, a half word for 16-bit formats). */
function bitsOf(words: Uint32Array, name: Name, e: number): string {
  if (name === 'f64') return `${words[2 * e]}:${words[2 * e + 1]}`;
  if (name === 'f32') return `${words[e]}`;
  return `${(words[e >> 1]! >>> ((e & 1) * 16)) & 0xffff}`;
}

function wordsOf(data: Float64Array | Float32Array | Uint16Array): Uint32Array {
  const bytes = new Uint8Array(Math.ceil(data.byteLength / 4) * 4);
  bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return new Uint32Array(bytes.buffer);
}

/** Every span element: the view's equal the packed output's, the others their sentinel bits. */
function expectOnlyView(name: Name, span: Uint32Array, original: Uint32Array, packed: Uint32Array, size: number, view: { off: number; inc: number; n: number }, what: string): void {
  const inView = new Map(Array.from({ length: view.n }, (_, i) => [view.off + i * view.inc, i]));
  for (let e = 0; e < size; e++) {
    const i = inView.get(e);
    expect(bitsOf(span, name, e), `${what}: element ${e}${i === undefined ? ' (sentinel)' : ` (view element ${i})`}`).toBe(i === undefined ? bitsOf(original, name, e) : bitsOf(packed, name, i));
  }
}

const VIEWS = [{ off: 5, inc: 1 }, { off: 6, inc: 3 }, { off: 51, inc: -4 }] as const;
const SIZE = 64;
const N = 11;

/**
 * The resident API: outputs (and TRSV's A, ELL's x) as views of sentinel-filled device spans, against the same
 * kernels on packed arrays.
 */
export async function residentOutputViews(): Promise<void> {
  for (const name of NAMES) {
    for (const arithmetic of ['f32', 'ff'] as const) {
      for (const { off, inc } of VIEWS) {
        const what = `${name} ${arithmetic} off ${off} inc ${inc}`;
        const full = sentinelRange(name, SIZE);
        const yv = viewOf(full, N, off, inc, randomValues(N, 1));
        const original = wordsOf(full.accessor.data as never);
        const out = deviceView(await toDevice(full as never), off, N, inc);
        expect(out.isView).toBe(true);
        const ref = await toDevice(stored(yv), { format: name });
        const X = await toDevice(randomValues(N, 2), { format: name });
        const An = deviceMatrix(await toDevice(randomValues(N * N, 3), { format: name }), N, N);
        // A triangular system, packed column-major and as a column-major view of another sentinel span (offset 7,
        // ld N + 2). Both column-major: without an adapter the CPU backend's fp32 TRSV walks a row-major A by rows in
        // WebAssembly lanes (another order, other last bits) — row-major device views are tested in row-major-views.
        const tri = Float64Array.from({ length: N * N }, (_, k) => (k % (N + 1) === 0 ? 4 : Math.sin(k) / N));
        const Aspan = sentinelRange(name, 7 + N * (N + 2));
        for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) Aspan.accessor.storage.encode(Aspan.accessor.data as never, 7 + i + j * (N + 2), tri[i + j * N]! as never);
        const Tview = deviceMatrixView(await toDevice(Aspan as never), { rows: N, cols: N, offset: 7, rowStride: 1, colStride: N + 2 });
        const Tpacked = deviceMatrix(await toDevice(stored(range(colMajor<2>({ size: [N, N], stride: N + 2, offset: 7, storage: Aspan.accessor.storage, arithmetic: formats.f32, data: Aspan.accessor.data as never }))), { format: name }), N, N);
        const xFull = sentinelRange(name, SIZE);
        const xv = viewOf(xFull, N, 60, -5, randomValues(N, 4));
        const xView = deviceView(await toDevice(xFull as never), 60, N, -5);
        const xPacked = await toDevice(stored(xv), { format: name });
        const ell = csrToEll(laplacianCsr([N]));
        const E = await toDeviceEll(ell, { format: name });
        // The same values as a row-major view (row i at 7 + i·(width + 2)) of a sentinel-filled span.
        const Vspan = sentinelRange(name, 7 + ell.stride * (ell.width + 2));
        for (let i = 0; i < ell.stride; i++) for (let k = 0; k < ell.width; k++) Vspan.accessor.storage.encode(Vspan.accessor.data as never, 7 + i * (ell.width + 2) + k, (ell.colIndex[i + k * ell.stride]! < 0 ? NaN : ell.values[i + k * ell.stride]!) as never);
        const Vrange = range(rowMajor<2>({ size: [ell.stride, ell.width], stride: ell.width + 2, offset: 7, storage: Vspan.accessor.storage, arithmetic: formats.f32, data: Vspan.accessor.data as never }));
        const Eview = await deviceEllView(ell, await toDeviceMatrix(Vrange as never));
        const steps: [string, (y: DeviceArray, packed: boolean) => Promise<unknown>][] = [
          ['axpby', (y) => gpuUpdate({ alpha: 2, x: X, beta: -0.5, y, out: y }, { arithmetic })],
          ['scal', (y) => gpuUpdate({ alpha: 0.75, x: y, beta: 0, out: y }, { arithmetic })],
          ['copy', (y) => gpuUpdate({ alpha: 0, beta: 1, y: X, out: y }, { arithmetic })],
          ['gemv N β≠0', (y) => gpuGemv({ A: An, x: X, y, alpha: 1, beta: 0.5 }, { arithmetic })],
          ['gemv T β=0', (y) => gpuGemv({ A: An, x: X, y, alpha: -1, beta: 0, trans: 'T' }, { arithmetic })],
          ['gemv α=0', (y) => gpuGemv({ A: An, x: X, y, alpha: 0, beta: 2 }, { arithmetic })],
          ['trsv L, A a view', (y, packed) => gpuTrsv({ A: packed ? Tpacked : Tview, x: y, uplo: 'L' }, { arithmetic })],
          ['trsv U T', (y) => gpuTrsv({ A: Tpacked, x: y, uplo: 'U', trans: 'T' }, { arithmetic })],
          ['ell, x a view', (y, packed) => gpuEllSpmv({ A: E, x: packed ? xPacked : xView, y, alpha: 1, beta: -1 }, { arithmetic })],
          ['ell β=0', (y) => gpuEllSpmv({ A: E, x: X, y, alpha: 2, beta: 0 }, { arithmetic })],
          ['ell, values a view (NaN in the padding)', (y, packed) => gpuEllSpmv({ A: packed ? E : Eview, x: X, y, alpha: 1, beta: 0.5 }, { arithmetic })],
        ];
        for (const [step, run] of steps) {
          await run(out, false);
          await run(ref, true);
          expectOnlyView(name, (await out.encoded()).words, original, (await ref.encoded()).words, SIZE, { off, inc, n: N }, `${what} ${step}`);
        }
        // Every kernel wrote the view in place, TRSV's x included: no packed twin was made.
        expect(out.storage.twins, `${what}: a packed twin`).toBeUndefined();
        for (const a of [out, X, An.data, Tview.data, Tpacked.data, xView, xPacked, E.values, Eview.values, ref]) a.destroy();
      }
    }
  }
}

/** A row-major N×N sub-range (rows 2…, columns 3…) of a sentinel-filled matrix, holding `values(i, j)`. */
function subMatrix(name: Name, arithmetic: typeof formats.f32, values: (i: number, j: number) => number): Range<2, any> {
  const big = range(rowMajor<2>({ size: [N + 4, N + 5], storage: STORAGE[name] as never, arithmetic }));
  const a = big.accessor;
  for (let i = 0; i < N + 4; i++) for (let j = 0; j < N + 5; j++) a.storage.encode(a.data as never, a.linearIndex([i, j]), NaN as never);
  const A = big.sub(span(2, N + 2), span(3, N + 3)) as Range<2, any>;
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) a.storage.encode(a.data as never, A.accessor.linearIndex([i, j]), values(i, j) as never);
  return A;
}

/**
 * A packed copy of a range's stored values; a matrix keeps its orientation (row-major stays row-major), so the CPU
 * kernels walk the copy as they walk the view (WebAssembly's lanes make a GEMV by rows and one by columns differ in
 * the last bits).
 */
function packedCopy(r: Range<any, any>): Range<any, any> {
  const a = r.accessor;
  const v = stored(r);
  if (a.dimensionality === 1) return vector(v, { storage: a.storage, arithmetic: a.arithmetic } as never);
  const origin = a.linearIndex([0, 0]);
  const rowMajorView = r.length(0) > 1 && r.length(1) > 1 && Math.abs(a.linearIndex([0, 1]) - origin) < Math.abs(a.linearIndex([1, 0]) - origin);
  const o = { storage: a.storage, arithmetic: a.arithmetic, layout: rowMajorView ? 'row-major' : 'col-major' } as never;
  return matrix(r.length(0), r.length(1), (i, j) => v[i + j * r.length(0)]!, o);
}

/**
 * `backend: 'gpu'` on ranges: strided and negative-stride outputs and inputs, a row-major sub-range A, all inside
 * sentinel-filled storage; the host bytes outside each output view must be untouched and its elements must equal
 * the same call on packed copies.
 */
export async function rangeOutputViews(backend: 'gpu' | 'cpu'): Promise<void> {
  for (const name of NAMES) {
    const arithmetic = name === 'f64' ? formats.ff : formats.f32;
    for (const { off, inc } of VIEWS) {
      const what = `${name} off ${off} inc ${inc}`;
      const A = subMatrix(name, arithmetic as never, (i, j) => (i === j ? 4 : Math.sin(i * N + j) / N));
      const xFull = sentinelRange(name, SIZE, arithmetic as never);
      const x = viewOf(xFull, N, 60, -5, randomValues(N, 4));
      const E = ellFromMatrix(csrToEll(laplacianCsr([N])), arithmetic as never);
      // The same matrix with its values in a row-major sub-range of sentinel-filled storage in this format.
      const Ev = ellOperand(E.structure, subMatrix(name, arithmetic as never, (i, j) => (j < E.structure.width ? E.values.get(i, j) as number : NaN)).sub(span(0, N), span(0, E.structure.width)) as never);
      const Ep = ellOperand(E.structure, packedCopy(Ev.values));
      const calls: [string, (y: Range<1, any>, A: Range<2, any>, x: Range<1, any>, packed: boolean) => Promise<unknown>][] = [
        ['gemv N', (y, A, x) => gemv({ alpha: 1.5, A, x, beta: 0.5, y }, { backend: 'gpu' })],
        ['gemv T β=0', (y, A, x) => gemv({ alpha: 1, A, x, beta: 0, y, trans: 'T' }, { backend: 'gpu' })],
        ['trsv L', (y, A) => trsv({ A, x: y, uplo: 'L' }, { backend: 'gpu' })],
        ['trsv U T', (y, A) => trsv({ A, x: y, uplo: 'U', trans: 'T' }, { backend: 'gpu' })],
        ['axpy', (y, _A, x) => axpy(0.5, x, y, { backend: 'gpu' })],
        ['waxpby', (y, _A, x) => waxpby(2, x, -1, x, y, { backend: 'gpu' })],
        ['scal', (y) => scal(3, y, { backend: 'gpu' })],
        ['ell', (y, _A, x) => ellSpmv({ alpha: 1, A: E, x, beta: -2, y }, { backend: 'gpu' })],
        ['ell, values a row-major sub-range', (y, _A, x, packed) => ellSpmv({ alpha: 1, A: packed ? Ep : Ev, x, beta: 0.5, y }, { backend: 'gpu' })],
      ];
      for (const [call, run] of calls) {
        const full = sentinelRange(name, SIZE, arithmetic as never);
        const y = viewOf(full, N, off, inc, randomValues(N, 5));
        const original = wordsOf(full.accessor.data as never);
        const yp = packedCopy(y);
        const report = await run(y, A, x, false) as { backend: string };
        expect(report.backend, `${what} ${call}`).toBe(backend);
        await run(yp, packedCopy(A), packedCopy(x), true);
        expectOnlyView(name, wordsOf(full.accessor.data as never), original, wordsOf(yp.accessor.data as never), SIZE, { off, inc, n: N }, `${what} ${call}`);
      }
    }
  }
}
