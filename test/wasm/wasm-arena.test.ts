/**
 * wasmArena (issue 20): ranges whose storage is a view of the WebAssembly kernels' memory, read and written in
 * place. The allocation API and its failure modes (typed errors, never a silently detached view), and every
 * in-place kernel bit for bit the staging path's result on twin operands in ordinary memory: formats, strides,
 * sub-ranges, outputs in place.
 */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import fc from 'fast-check';
import { asum, nrm2, axpy, waxpby, scal, dot, gemv, trsv, ellSpmv, ellOperand, ellWithStorage, laplacianEll, ELL_PADDING, matrix, vector, formats, wasmArena, cpuBackendOf, type WasmArena } from '../../src/index.js';
import { wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, inPlaceAddress, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { setWasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { element, matrixTwinSpec, matrixTwins, raw, vectorTwinSpec, vectorTwins, type TwinStorage } from './arena-twins.js';

const ARENA_BYTES = 16 * 2 ** 20;
let arenas: WasmArena[] = [];
/** An arena released after the test (each property run reuses the same bytes: the memory does not grow). */
function arena(bytes = ARENA_BYTES): WasmArena {
  const a = wasmArena(bytes);
  arenas.push(a);
  return a;
}
/** Runs `f` with a fresh arena, released afterwards (each property run reuses the same bytes). */
function inArena(f: (a: WasmArena) => void): void {
  const a = wasmArena(ARENA_BYTES);
  try { f(a); } finally { a.release(); }
}
afterEach(() => {
  for (const a of arenas) a.release();
  arenas = [];
});

/** Lengths: mostly short (every remainder mod 16), some across the staging chunks of every element size. */
const lengths = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 70 }) },
  { weight: 1, arbitrary: fc.constantFrom(CHUNK - 3, CHUNK + 9, 4 * CHUNK + 5, 8 * CHUNK + 13) },
);
const ALL: readonly TwinStorage[] = ['f64', 'f32', 'f16', 'bf16', 'i8s', 'i8', 'dd'];

describe('wasmArena: allocation', () => {
  it('allocates zeroed views of the kernels\' memory, read in place at unit stride', () => {
    const a = arena(1 << 16);
    const x = vector(5, { storage: formats.f32, memory: a });
    const data = x.accessor.data as Float32Array;
    expect(data.buffer).toBe(wasmMemory().buffer);
    expect(Array.from(data)).toEqual([0, 0, 0, 0, 0]);
    expect(data.byteOffset % 64).toBe(0);
    expect(data.byteOffset).toBeGreaterThanOrEqual(a.base);
    expect(inPlaceAddress(x.accessor, wasmStorageOf(x.accessor) as WasmStorage, 2)).toBe(data.byteOffset + 8);
    expect(inPlaceAddress(vector(5).accessor, wasmStorageOf(x.accessor) as WasmStorage, 0)).toBe(-1);
    expect(a.bytesLeft).toBe((1 << 16) - 20);
  });

  it('refuses with typed errors: too large, released, combined with data or shared, a second arena that needs growth', () => {
    const a = arena(1024);
    expectModprec(() => vector(129, { memory: a }), 'BACKEND_LIMIT', 'memory');
    expectModprec(() => vector(2, { memory: a, shared: true }), 'INVALID_OPTION', 'memory');
    expectModprec(() => wasmArena(-1), 'INVALID_SIZE', 'bytes');
    // The memory cannot grow while `a` is live: growing would detach a's arrays.
    const x = vector([1, 2], { memory: a });
    expectModprec(() => wasmArena(wasmMemory().buffer.byteLength), 'BACKEND_LIMIT', 'bytes');
    expect(x.get(1)).toBe(2);
    a.release();
    expectModprec(() => vector(2, { memory: a }), 'INVALID_OPTION', 'memory');
    arenas = [];
  });

  it('a kernel whose staging would reach the arena is BACKEND_LIMIT naming wasmArena, before anything is written', () => {
    const a = wasmArena(1024, { staging: 256 * 1024 });
    arenas.push(a);
    // A row-major GEMV stages x decoded to doubles: n doubles reach past the arena's first byte (at least 256 KiB,
    // more if an earlier call staged more).
    const n = Math.ceil(a.base / 8) + 1000;
    const A = matrix(1, n, undefined, { layout: 'row-major' }), x = vector(n), y = vector([7]);
    expectModprec(() => gemv({ alpha: 1, A, x, beta: 0, y }, { backend: 'wasm' }), 'BACKEND_LIMIT', 'wasmArena');
    expect(y.get(0)).toBe(7);
  });
});

describe('wasmArena: DOT in place, bit for bit the staging path', () => {
  it('every storage (f64, f32, f16, bf16, i8, scaled i8, dd), f64 and f32 arithmetic, strides, sub-ranges, chunk boundaries', () => {
    const input = lengths.chain((n) => fc.record({
      a: vectorTwinSpec(ALL), b: vectorTwinSpec(ALL), arithmetic: fc.constantFrom('f64' as const, 'f32' as const),
      // the double-double DOTs (dd accumulation, dd arithmetic) stream the same chunks
      options: fc.constantFrom({}, {}, { accumulation: 'dd' }, { arithmetic: formats.dd }, { accumulation: 'kahan' }),
      xs: fc.array(element, { minLength: n, maxLength: n }), ys: fc.array(element, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a: sa, b: sb, arithmetic, options, xs, ys }) => inArena((a) => {
      const [x1, x2] = vectorTwins(sa, xs, a, arithmetic), [y1, y2] = vectorTwins(sb, ys, a, arithmetic);
      const backend = cpuBackendOf('dot', { x: x1, y: y1 }, options).backend;
      expect(cpuBackendOf('dot', { x: x2, y: y2 }, options).backend).toBe(backend);
      expect(Object.is(dot(x2, y2, options), dot(x1, y1, options))).toBe(true);
    })), { numRuns: 150 });
  });

  it('ASUM and NRM2 (one-vector lane reductions) in place, every storage, f64 and f32 arithmetic, recursive and kahan', () => {
    const input = lengths.chain((n) => fc.record({
      a: vectorTwinSpec(ALL), arithmetic: fc.constantFrom('f64' as const, 'f32' as const), xs: fc.array(element, { minLength: n, maxLength: n }),
      // kahan: each lane's (s, c) carried across the in-place body and the staged rest of a chunk
      accumulation: fc.constantFrom('recursive' as const, 'kahan' as const),
    }));
    fc.assert(fc.property(input, ({ a: sa, arithmetic, xs, accumulation }) => inArena((a) => {
      const [x1, x2] = vectorTwins(sa, xs, a, arithmetic);
      const options = { accumulation };
      expect(Object.is(asum(x2, options), asum(x1, options))).toBe(true);
      expect(Object.is(nrm2(x2, options), nrm2(x1, options))).toBe(true);
    })), { numRuns: 100 });
  });
});

const finite = fc.double({ min: -1e3, max: 1e3, noNaN: true });
const coefficient = fc.oneof(fc.double({ min: -8, max: 8, noNaN: true }), fc.constantFrom(0, -0, 1, NaN, Infinity));
const OUTPUTS: readonly TwinStorage[] = ['f64', 'f32'];

describe('wasmArena: the AXPY family in place (outputs too), bit for bit the staging path', () => {
  it('AXPY y := αx + y and SCAL x := αx, every input storage, f64 and f32 arithmetic', () => {
    const input = lengths.chain((n) => fc.record({
      a: vectorTwinSpec(ALL), b: vectorTwinSpec(OUTPUTS), alpha: coefficient, arithmetic: fc.constantFrom('f64' as const, 'f32' as const),
      xs: fc.array(element, { minLength: n, maxLength: n }), ys: fc.array(element, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a: sa, b: sb, alpha, arithmetic, xs, ys }) => inArena((a) => {
      const [x1, x2] = vectorTwins(sa, xs, a, arithmetic), [y1, y2] = vectorTwins(sb, ys, a, arithmetic);
      expect(cpuBackendOf('axpy', { x: x2, y: y2 }, {}, ['y'])).toEqual(cpuBackendOf('axpy', { x: x1, y: y1 }, {}, ['y']));
      axpy(alpha, x1, y1);
      axpy(alpha, x2, y2);
      expect(raw(y2)).toEqual(raw(y1));
      scal(alpha, y1);
      scal(alpha, y2);
      expect(raw(y2)).toEqual(raw(y1));
    })), { numRuns: 120 });
  });

  it('WAXPBY w := αx + βy, zero coefficients in any position, the output aliasing nothing or y', () => {
    const input = lengths.chain((n) => fc.record({
      a: vectorTwinSpec(ALL), b: vectorTwinSpec(OUTPUTS), c: vectorTwinSpec(OUTPUTS),
      alpha: fc.oneof(coefficient, fc.constant(0)), beta: fc.oneof(coefficient, fc.constant(0)), intoY: fc.boolean(),
      xs: fc.array(element, { minLength: n, maxLength: n }), ys: fc.array(element, { minLength: n, maxLength: n }), ws: fc.array(element, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a: sa, b: sb, c: sc, alpha, beta, intoY, xs, ys, ws }) => inArena((a) => {
      const [x1, x2] = vectorTwins(sa, xs, a), [y1, y2] = vectorTwins(sb, ys, a), [w1, w2] = vectorTwins(sc, ws, a);
      waxpby(alpha, x1, beta, y1, intoY ? y1 : w1);
      waxpby(alpha, x2, beta, y2, intoY ? y2 : w2);
      expect(raw(y2)).toEqual(raw(y1));
      expect(raw(w2)).toEqual(raw(w1));
    })), { numRuns: 120 });
  });
});

describe('wasmArena: GEMV in place, bit for bit the staging path', () => {
  it('N and T over row- and column-major sub-matrices of every storage, f64, f32 and double-double arithmetic, recursive, kahan and dd, row blocks and row chunks crossed', () => {
    const shape = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 19 })) },
      { weight: 1, arbitrary: fc.constantFrom<[number, number]>([CHUNK + 13, 3], [2, CHUNK + 13], [CHUNK + 13, 8]) },
    );
    const input = shape.chain(([m, n]) => fc.record({
      m: fc.constant(m), n: fc.constant(n), trans: fc.constantFrom('N' as const, 'T' as const), arithmetic: fc.constantFrom('f64' as const, 'f32' as const),
      A: matrixTwinSpec(ALL), x: vectorTwinSpec(ALL), y: vectorTwinSpec(OUTPUTS), alpha: coefficient, beta: coefficient, seed: fc.integer(),
      options: fc.constantFrom({}, { accumulation: 'kahan' }, { accumulation: 'dd' }, { arithmetic: formats.dd }),
      // Specials in one case of three: a non-finite compensated or double-double row sum is the JavaScript's to answer.
      xs: fc.integer({ min: 0, max: 2 }).chain((k) => fc.array(k === 0 ? element : finite, { minLength: Math.max(m, n), maxLength: Math.max(m, n) })),
      ys: fc.array(element, { minLength: Math.max(m, n), maxLength: Math.max(m, n) }),
    }));
    fc.assert(fc.property(input, ({ m, n, trans, arithmetic, A: sA, x: sx, y: sy, alpha, beta, seed, options, xs, ys }) => inArena((a) => {
      const [rowsOp, colsOp] = trans === 'N' ? [m, n] : [n, m];
      const value = (i: number, j: number): number => (((i * 131 + j * 71 + seed) % 97) - 48) / 8;
      const [A1, A2] = matrixTwins(sA, m, n, value, a, arithmetic);
      const [x1, x2] = vectorTwins(sx, xs.slice(0, colsOp), a, arithmetic), [y1, y2] = vectorTwins(sy, ys.slice(0, rowsOp), a, arithmetic);
      expect(cpuBackendOf('gemv', { A: A2, x: x2, y: y2 }, options, ['y']).backend).toBe(cpuBackendOf('gemv', { A: A1, x: x1, y: y1 }, options, ['y']).backend);
      gemv({ alpha, A: A1, x: x1, beta, y: y1, trans }, options);
      gemv({ alpha, A: A2, x: x2, beta, y: y2, trans }, options);
      expect(raw(y2)).toEqual(raw(y1));
    })), { numRuns: 150 });
  });
});

describe('wasmArena: TRSV in place, bit for bit the staging path', () => {
  it('L/U, N/T, unit or not, row- and column-major sub-matrices of every storage, f64 and f32 arithmetic, recursive and kahan', () => {
    const input = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 26 }) }, { weight: 1, arbitrary: fc.constantFrom(61, 70) }).chain((n) => fc.record({
      n: fc.constant(n), uplo: fc.constantFrom('L' as const, 'U' as const), trans: fc.constantFrom('N' as const, 'T' as const), diag: fc.constantFrom('N' as const, 'U' as const),
      arithmetic: fc.constantFrom('f64' as const, 'f32' as const), accumulation: fc.constantFrom('recursive' as const, 'kahan' as const),
      A: matrixTwinSpec(ALL), x: vectorTwinSpec(OUTPUTS), seed: fc.integer({ min: 0, max: 2 ** 20 }),
      xs: fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ n, uplo, trans, diag, arithmetic, accumulation, A: sA, x: sx, seed, xs }) => inArena((a) => {
      // A dominant diagonal (an exact 5 or 6 in every storage), small off-diagonal entries: the solution stays finite.
      const value = (i: number, j: number): number => (i === j ? 5 + ((i + seed) % 2) : (((i * 131 + j * 71 + seed) % 97) - 48) / 64);
      const [A1, A2] = matrixTwins(sA, n, n, value, a, arithmetic);
      const [x1, x2] = vectorTwins(sx, xs, a, arithmetic);
      const options = { accumulation };
      expect(cpuBackendOf('trsv', { A: A2, x: x2 }, options, ['x']).backend).toBe(cpuBackendOf('trsv', { A: A1, x: x1 }, options, ['x']).backend);
      trsv({ A: A1, x: x1, uplo, trans, diag }, options);
      trsv({ A: A2, x: x2, uplo, trans, diag }, options);
      expect(raw(x2)).toEqual(raw(x1));
    })), { numRuns: 120 });
  });
});

describe('wasmArena: row-major GEMV many rows per call (kernels/gemv/gemv-rows-wasm.ts)', () => {
  it.each([2, 4] as const)('groups of %i rows: every storage, f64 and f32 arithmetic, row counts around the group, rows of 8 and 16: bit for bit the per-row staging path', (group) => {
    const value = (i: number, j: number): number => (((i * 131 + j * 71) % 97) - 48) / 8;
    const shapes = group === 2 ? [[1, 8], [2, 16], [5, 8], [6, 16]] as const : [[3, 8], [4, 16], [7, 8], [9, 16]] as const;
    const previous = setWasmKernelForms({ gemvRowGroup: group });
    onTestFinished(() => void setWasmKernelForms(previous));
    for (const storage of ALL) for (const arithmetic of ['f64', 'f32'] as const) for (const [m, n] of shapes) {
      inArena((a) => {
        const spec = { storage, layout: 'row-major' as const, pad: 1, row0: 1, col0: 0 };
        const [A1, A2] = matrixTwins(spec, m, n, value, a, arithmetic);
        const xs = Array.from({ length: n }, (_, j) => (j % 5) - 1.75);
        const [x1, x2] = vectorTwins({ storage: 'f64', stride: 1, lead: 0, tail: 0 }, xs, a, arithmetic);
        const [y1, y2] = vectorTwins({ storage: 'f64', stride: 1, lead: 0, tail: 0 }, new Array<number>(m).fill(0.5), a, arithmetic);
        gemv({ alpha: 1.5, A: A1, x: x1, beta: 0.25, y: y1 });
        gemv({ alpha: 1.5, A: A2, x: x2, beta: 0.25, y: y2 });
        expect(raw(y2), `${storage} ${arithmetic} ${m}×${n}`).toEqual(raw(y1));
      });
    }
  });
});

describe('wasmArena: ELL SpMV in place, bit for bit the staging path', () => {
  it('values of every storage and column indices in the arena (each or both), padding slots, stride > rows, row blocks crossed, recursive, kahan and dd (fp64 and double-double arithmetic)', () => {
    const input = fc.record({
      rows: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }) }, { weight: 4, arbitrary: fc.constantFrom(8, 16, 32) }, { weight: 1, arbitrary: fc.constant(4096 + 13) }),
      cols: fc.integer({ min: 1, max: 9 }), width: fc.integer({ min: 0, max: 3 }), extraStride: fc.integer({ min: 0, max: 9 }),
      V: matrixTwinSpec(ALL), indicesInArena: fc.boolean(), x: vectorTwinSpec([...ALL, 'f64', 'f64', 'f64']), y: vectorTwinSpec(OUTPUTS),
      alpha: coefficient, beta: coefficient, arithmetic: fc.constantFrom('f64' as const, 'f32' as const), seed: fc.integer({ min: 0, max: 2 ** 30 }),
      // kahan, dd: the block kernels' compensations or double-double sums with in-place operands (the slot strides are
      // the operand's); double-double arithmetic (odd widths add a padding slot: staged).
      options: fc.constantFrom({}, { accumulation: 'kahan' }, { accumulation: 'dd' }, { arithmetic: formats.dd }),
    });
    fc.assert(fc.property(input, (c) => inArena((a) => {
      const stride = c.rows + c.extraStride;
      const colIndex = new Int32Array(stride * c.width).fill(ELL_PADDING);
      for (let i = 0; i < c.rows; i++) {
        const length = (i * 7 + c.seed) % (c.width + 1);
        for (let k = 0; k < length; k++) colIndex[i + k * stride] = (i * 5 + k * 3 + c.seed) % c.cols;
      }
      const value = (i: number, k: number): number => (i < c.rows && colIndex[i + k * stride] !== ELL_PADDING ? (((i * 13 + k * 7 + c.seed) % 41) - 20) / 4 : NaN);
      // Values padded to the stride's rows, viewed as the [stride, width] sub-matrix the kernel reads.
      const [V1, V2] = matrixTwins({ ...c.V, row0: 0, col0: 0 }, stride, c.width, value, a, c.arithmetic);
      const indices = c.indicesInArena ? a.allocate(Int32Array, colIndex.length) : colIndex;
      indices.set(colIndex);
      const structure = { rows: c.rows, cols: c.cols, width: c.width, stride };
      const A1 = ellOperand({ ...structure, colIndex }, V1), A2 = ellOperand({ ...structure, colIndex: indices }, V2);
      const xs = Array.from({ length: c.cols }, (_, j) => (j % 3) - 0.75), ys = Array.from({ length: c.rows }, (_, i) => (i % 5) * 0.5);
      const [x1, x2] = vectorTwins(c.x, xs, a, c.arithmetic), [y1, y2] = vectorTwins(c.y, ys, a, c.arithmetic);
      const options = c.options;
      expect(cpuBackendOf('ellSpmv', { x: x2, y: y2 }, options, ['y'])).toEqual(cpuBackendOf('ellSpmv', { x: x1, y: y1 }, options, ['y']));
      ellSpmv({ alpha: c.alpha, A: A1, x: x1, beta: c.beta, y: y1 }, options);
      ellSpmv({ alpha: c.alpha, A: A2, x: x2, beta: c.beta, y: y2 }, options);
      expect(raw(y2)).toEqual(raw(y1));
    })), { numRuns: 120 });
  });

  it('double-double sums (dd accumulation, dd arithmetic) read unscaled values and column indices in place: finite operands, whole row blocks', () => {
    const UNSCALED: readonly TwinStorage[] = ['f64', 'f32', 'f16', 'bf16', 'i8', 'dd'];
    const input = fc.record({
      rows: fc.constantFrom(8, 16, 40), cols: fc.integer({ min: 1, max: 9 }), width: fc.integer({ min: 1, max: 4 }), storage: fc.constantFrom(...UNSCALED),
      options: fc.constantFrom({ accumulation: 'dd' }, { arithmetic: formats.dd }), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(fc.property(input, (c) => inArena((a) => {
      const colIndex = new Int32Array(c.rows * c.width).fill(ELL_PADDING);
      for (let i = 0; i < c.rows; i++) for (let k = 0; k < (i + c.seed) % (c.width + 1); k++) colIndex[i + k * c.rows] = (i * 5 + k * 3 + c.seed) % c.cols;
      const value = (i: number, k: number): number => (colIndex[i + k * c.rows] !== ELL_PADDING ? (((i * 13 + k * 7 + c.seed) % 41) - 20) / 4 : 0);
      const [V1, V2] = matrixTwins({ storage: c.storage, layout: 'col-major', pad: 0, row0: 0, col0: 0 }, c.rows, c.width, value, a);
      const indices = a.allocate(Int32Array, colIndex.length);
      indices.set(colIndex);
      const structure = { rows: c.rows, cols: c.cols, width: c.width, stride: c.rows };
      const A1 = ellOperand({ ...structure, colIndex }, V1), A2 = ellOperand({ ...structure, colIndex: indices }, V2);
      const x = vector(Array.from({ length: c.cols }, (_, j) => (j % 3) - 0.75 + j / 1024));
      const y1 = vector(c.rows), y2 = vector(c.rows);
      ellSpmv({ alpha: 1.5, A: A1, x, beta: 0, y: y1 }, { ...c.options, backend: 'wasm' });
      ellSpmv({ alpha: 1.5, A: A2, x, beta: 0, y: y2 }, { ...c.options, backend: 'wasm' });
      expect(raw(y2)).toEqual(raw(y1));
    })), { numRuns: 40 });
  });

  it('ellWithStorage({ memory }) puts the values and a copy of the column indices in the arena', () => {
    const a = arena();
    const E = laplacianEll([4, 4, 3]);
    const A = ellWithStorage(E, { storage: formats.f32, memory: a });
    expect(A.structure.colIndex.buffer).toBe(wasmMemory().buffer);
    expect(Array.from(A.structure.colIndex)).toEqual(Array.from(E.colIndex));
    expect((A.values.accessor.data as Float32Array).buffer).toBe(wasmMemory().buffer);
    const plain = ellWithStorage(E, { storage: formats.f32 });
    const x = vector(Array.from({ length: E.cols }, (_, j) => Math.sin(j))), y1 = vector(E.rows), y2 = vector(E.rows);
    ellSpmv({ alpha: 1, A: plain, x, beta: 0, y: y1 });
    ellSpmv({ alpha: 1, A, x, beta: 0, y: y2 });
    expect(raw(y2)).toEqual(raw(y1));
    expectModprec(() => ellWithStorage(E, { storage: formats.f32, memory: {} as WasmArena }), 'INVALID_OPTION', 'options.memory');
  });
});
