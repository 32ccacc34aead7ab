/**
 * Vectors with a scale per element, and matrices with scales per row, column or element, as the WebAssembly kernels
 * read them: a twin in unscaled storage holding each
 * element as the JavaScript kernel's load reads it — the generated load itself (src/backends/cpu/operand.ts,
 * emitLoad, compiled for the vector's signature): fp64 arithmetic the double fl(v·s), fp32 arithmetic the binary32
 * read, double-double arithmetic the template's pair (v, 0)·(s, 0) (dd storage: its pair) —, which the kernels then
 * read as they read an unscaled f64, f32 or dd operand: exactly those values, so every operation after the read sees
 * what the JavaScript's does. Writes never go to the twin: outputs are stored through the JavaScript kernels' own
 * store (kernels/shared/store-numbers-cpu.ts, kernels/gemv/combine-sums-cpu.ts), whose cursor steps the scales.
 * @module
 */
import { Accessor } from '../../accessors/accessor.js';
import { declareRegister, type ArithmeticFormat } from '../../src/formats/common/format.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, loadAt, stepCursor } from '../../src/backends/cpu/cursor.js';
import { orderedNumerics, scaledPerElement, scaledPerLine, type wasmNumericsOf } from './cpu-backend.js';

type ReadAll = (n: number, out: Float64Array | Float32Array, ...x: unknown[]) => void;

/**
 * The twins' buffers, reused from call to call (grow-only, one per slot: a call twins at most x, y and a matrix at
 * once): a fresh megabyte-sized typed array per call cost more than the read itself (zeroed pages), 5–20 ms for 2^17
 * doubles on this shared VM. A twin lives only during the kernel call that made it (the kernels run synchronously).
 */
const pool: (Float64Array | undefined)[] = [];

/** A view of `words` doubles (or, `f32`, of 2·words binary32 values' room) of slot `slot`'s buffer. */
function scratch(slot: number, words: number, f32: boolean): Float64Array | Float32Array {
  let b = pool[slot];
  if (!b || b.length < words) pool[slot] = b = new Float64Array(Math.max(words, 2 * (b?.length ?? 0)));
  return f32 ? new Float32Array(b.buffer, 0, words) : b.subarray(0, words);
}

/** The twin's buffer for n elements of `format`'s storage (binary32, doubles, or pairs of doubles) from slot `slot`. */
function twinData(slot: number, n: number, storageName: string): Float64Array | Float32Array {
  return storageName === 'f32' ? scratch(slot, n, true) : scratch(slot, storageName === 'dd' ? 2 * n : n, false);
}

/** The generated read of every element in `ar` into `out` (double-double: out[2i], out[2i + 1] the register's parts). */
function readAllProgram(x: Accessor<1, any>, ar: ArithmeticFormat): ReadAll {
  const ox = new Operand('x', x);
  return compileProgram<ReadAll>({ kernel: 'scale-twin-read', x: ox.signature(), ar: ar.name }, () => {
    const c = cursor(ox, 'x_c'), v = ar.register('v');
    const put = ar.kind === 'dd' ? `out[2 * i] = ${v.names[0]}; out[2 * i + 1] = ${v.names[1]};` : `out[i] = ${v.names[0]};`;
    const source = `return function scale_twin_read(${['n', 'out', ...ox.params()].join(', ')}) {
${ox.emitDeclare(ar)}
${declareRegister(ar, v)}
${declareCursor(c)}
for (let i = 0; i < n; i++, ${stepCursor(c, 0)}) {
${loadAt(c, ar, v)}
${put}
}
};`;
    return { source, helpers: mergeHelpers(ox.helpers(), ar.helpers) };
  });
}

/** The twin's storage for `numerics`: binary32 values, doubles, or pairs (raw, signs included) — the arithmetic's reads exactly. */
function twinFormat(numerics: ReturnType<typeof wasmNumericsOf>, ddArithmetic: boolean): ReturnType<typeof findFormat> & object {
  const f32 = numerics === 'f32' || numerics === 'kahan-f32' || orderedNumerics(numerics)?.arithmetic === 'f32';
  return findFormat(f32 ? 'f32' : numerics === 'dd' && ddArithmetic ? 'dd' : 'f64')!;
}

/**
 * A matrix as the WebAssembly kernel of `numerics` reads it: `T` itself unless it has scales per row, column or
 * element ({@link scaledPerLine}), else an unscaled twin of the JavaScript's reads (see the module comment), laid
 * out as T's contiguous direction is (column-major where T's columns are its shorter stride), line by line through
 * the generated load of a one-dimensional view of each line with its scales. `always`: a twin whatever T's scales
 * (ELL SpMV's double-double values in fp32 arithmetic, whose read — one rounding through round-to-odd — no WebAssembly
 * reader of its kernel makes).
 */
export function readMatrixTwin(T: Accessor<2, any>, numerics: ReturnType<typeof wasmNumericsOf>, ddArithmetic: boolean, slot = 2, always = false): Accessor<2, any> {
  if (!always && !scaledPerLine(T)) return T;
  const [m, n] = T.size as [number, number], [rs, cs] = T.strides as [number, number];
  const byColumns = Math.abs(rs) <= Math.abs(cs);
  const format = twinFormat(numerics, ddArithmetic), storage = format.storage!, words = format.storage!.kind === 'dd' ? 2 : 1;
  const data = twinData(slot, m * n, storage.name);
  const sc = T.scale;
  const [lines, length, d] = byColumns ? [n, m, 0] : [m, n, 1];
  for (let k = 0; k < lines; k++) {
    // Line k (column k, or row k) as a vector: its elements' strides and scales along dimension d.
    const line = new Accessor<1, any>({
      size: [length], strides: [T.strides[d] as number], offset: T.offset + k * (T.strides[1 - d] as number), storage: T.storage, arithmetic: T.arithmetic, data: T.data, layout: 'strided',
      scale: sc && { data: sc.data, offset: sc.offset + k * sc.strides[1 - d]!, strides: [sc.strides[d]!], mask: [sc.mask[d]!] },
    });
    readAllProgram(line, format.arithmetic!)(length, data.subarray(k * length * words, (k + 1) * length * words), ...Operand.args(line));
  }
  const strides: [number, number] = byColumns ? [1, Math.max(1, m)] : [Math.max(1, n), 1];
  return new Accessor<2, any>({ size: [m, n], strides, offset: 0, storage, arithmetic: T.arithmetic, data, layout: 'strided' });
}

/**
 * The vector as the WebAssembly kernel of `numerics` reads its first n elements: `a` itself unless it has a scale
 * per element ({@link scaledPerElement}), else its twin (see the module comment).
 * @param ddArithmetic - double-double arithmetic (numerics 'dd' with fp64 arithmetic reads doubles)
 * @param slot - the buffer it takes (0 and 1: a call's two vectors; 2: its matrix, {@link readMatrixTwin})
 */
export function readTwin(a: Accessor<1, any>, n: number, numerics: ReturnType<typeof wasmNumericsOf>, ddArithmetic: boolean, slot = 0): Accessor<1, any> {
  if (!scaledPerElement(a)) return a;
  const format = twinFormat(numerics, ddArithmetic), storage = format.storage!;
  const data = twinData(slot, n, storage.name);
  const part = a.sub({ begin: 0, end: n }) as Accessor<1, any>;
  readAllProgram(part, format.arithmetic!)(n, data, ...Operand.args(part));
  return new Accessor<1, any>({ size: [n], strides: [1], offset: 0, storage, arithmetic: a.arithmetic, data, layout: 'strided' });
}
