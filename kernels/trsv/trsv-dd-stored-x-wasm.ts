/**
 * x as the WebAssembly double-double TRSV (./trsv-dd-wasm.ts) reads and writes it. The JavaScript kernel in
 * double-double arithmetic (kernels/trsv/trsv-cpu.ts) reads bᵢ and every solved xⱼ through its generated load — in
 * a scaled range the stored value times the scale in double-double, a pair whose low part may count — and writes each
 * xᵢ through its generated store — the pair divided by the scale in double-double, then rounded to the storage (a
 * scaled integer: the exact quotient rounded once to the nearest integer, saturating). For an x that the WebAssembly
 * TRSVs do not store themselves (a scaled range with one scale, fp16, bf16 or integer storage) the reader and writer
 * here are that load and store, compiled for x's signature: each xᵢ is stored into x as the JavaScript stores it and
 * read back as its later rows read it, so the solve gives its bits.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { declareRegister, type ArithmeticFormat } from '../../src/formats/common/format.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, loadAt, stepCursor, storeAt } from '../../src/backends/cpu/cursor.js';

/** Reads and writes x's elements as the JavaScript kernel's double-double registers see them. */
export interface DdX {
  /** bᵢ (or a solved xᵢ) as the pair the arithmetic reads. */
  read(i: number, out: Float64Array): void;
  /** Stores the pair (hi, lo) as the kernel's store rounds it to x's storage. */
  write(i: number, hi: number, lo: number): void;
}

type ReadAt = (i: number, out: Float64Array, ...x: unknown[]) => void;
type WriteAt = (i: number, hi: number, lo: number, ...x: unknown[]) => void;

/** The generated load (`store` false) or store of element i of an x with this signature, in arithmetic `ar`. */
function elementProgram<F>(x: Accessor<1, any>, ar: ArithmeticFormat, store: boolean): F {
  const ox = new Operand('x', x);
  return compileProgram<F>({ kernel: store ? 'trsv-dd-x-store' : 'trsv-dd-x-load', x: ox.signature(), ar: ar.name }, () => {
    const c = cursor(ox, 'x_c'), v = ar.register('v');
    const [hi, lo] = v.names as [string, string];
    const body = store ? `${hi} = h; ${lo} = l;\n${storeAt(c, ar, v)}` : `${loadAt(c, ar, v)}\nout[0] = ${hi}; out[1] = ${lo};`;
    const source = `return function trsv_dd_x_${store ? 'store' : 'load'}(${[...(store ? ['i', 'h', 'l'] : ['i', 'out']), ...ox.params()].join(', ')}) {
${ox.emitDeclare(ar)}
${declareRegister(ar, v)}
${declareCursor(c)} ${stepCursor(c, 0, 'i')};
${body}
};`;
    return { source, helpers: mergeHelpers(ox.helpers(), ar.helpers) };
  });
}

/**
 * The reader and writer of an x in any storage the JavaScript kernel reads and writes, through its generated load and
 * store in double-double arithmetic `ar` (whose registers are pairs).
 */
export function storedDdX(x: Accessor<1, any>, ar: ArithmeticFormat): DdX {
  const load = elementProgram<ReadAt>(x, ar, false), store = elementProgram<WriteAt>(x, ar, true);
  const args = Operand.args(x);
  return {
    read: (i, out) => load(i, out, ...args),
    write: (i, hi, lo) => store(i, hi, lo, ...args),
  };
}
