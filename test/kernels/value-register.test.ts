/**
 * Exact reads under DD arithmetic: fp64/fp32 storage is loaded into plain number registers
 * (`Operand.valueRegister`), and the DD multiply-add of two such doubles is the specialised
 * `ddTwoProdAccumulate` — checked bit for bit through DOT, and in the generated source.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import '../../src/formats/dd/register.js';
import { vector, matrix, dot, range, rowMajor } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { ddArithmetic, type DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { ddTwoProdAccumulate } from '../../src/formats/dd/two-prod-accumulate.js';
import { ddTwoProdAccumulateSource } from '../../src/formats/dd/dd-templates.js';
import { f64Arithmetic } from '../../src/formats/f64/f64-arithmetic.js';
import { numberRegister } from '../../src/formats/common/format.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { withoutGuards } from '../../src/backends/cpu/guards.js';
import { generatedSources } from '../../src/backends/cpu/program-cache.js';

const cell = () => range(rowMajor<1, DdValue>({ size: 1, storage: 'dd' }));
/** s := x_i·y_i + s with ddTwoProdAccumulate, from s = 0. */
function reference(x: readonly number[], y: readonly number[]): [number, number] {
  const s = new Float64Array(2);
  x.forEach((a, i) => ddTwoProdAccumulate(s, a, y[i]!, s[0]!, s[1]!));
  return [s[0]!, s[1]!];
}
const doubles = (n: number) => fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n });

describe('exact reads into number registers under DD arithmetic', () => {
  it('valueRegister: a number register only for unscaled number storage under an arithmetic that takes number operands', () => {
    const kind = (r: ReturnType<typeof range>, ar = ddArithmetic) => new Operand('x', r.accessor).valueRegister(ar, 'xv').kind;
    expect(kind(vector([1, 2]))).toBe('number');
    expect(kind(vector([1, 2], { storage: 'f32' }))).toBe('number');
    expect(kind(range(rowMajor<1, DdValue>({ size: 2, storage: 'dd-split', data: new DdSplitArray({ hi: new Float64Array(2), lo: new Float64Array(2) }) })))).toBe('dd');
    expect(kind(range(scaledReducedRowMajor<1>({ size: [2], storage: 'i16', scaleMask: [false] })))).toBe('dd');
    expect(new Operand('x', vector([1]).accessor).valueRegister(f64Arithmetic, 'xv')).toEqual(f64Arithmetic.register('xv'));
    // A number register holds an exact double: the dd arithmetic reads it, never writes a DD into it.
    expect(() => ddArithmetic.emitMul(numberRegister('xv'), ddArithmetic.register('a'), ddArithmetic.register('b'))).toThrow(/register of kind number/);
  });

  it('DOT of fp64 and fp32 data in DD arithmetic is the sequence of ddTwoProdAccumulate steps, bit for bit', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }).chain((n) => fc.tuple(doubles(n), doubles(n))), ([xs, ys]) => {
      for (const storage of ['f64', 'f32'] as const) {
        const x = storage === 'f32' ? xs.map(Math.fround) : xs, y = storage === 'f32' ? ys.map(Math.fround) : ys;
        const want = reference(x, y);
        const out = cell();
        // The generated JavaScript's order (WebAssembly, the automatic choice, sums in the DD DOT's lanes).
        const r = dot(vector(x, { storage, arithmetic: 'dd' }), vector(y, { storage }), { into: out, backend: 'js' });
        expect([out.get(0).hi, out.get(0).lo]).toEqual(want);
        expect(r).toBe(want[0] + want[1]);
      }
    }), { numRuns: 200 });
  });

  it('GEMV (row order) of fp64 data in DD arithmetic: each row is the sequence of ddTwoProdAccumulate steps, bit for bit', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 20 }).chain((n) => fc.tuple(fc.array(doubles(n), { minLength: 6, maxLength: 6 }), doubles(n))), (m, [rows, xs]) => {
      const A = matrix(m, xs.length, (i, j) => rows[i]![j]!, { layout: 'row-major' });
      const y = range(rowMajor<1, DdValue>({ size: m, storage: 'dd' }));
      // The generated JavaScript's row order (WebAssembly sums rows in the DD DOT's lanes, within the same bound).
      gemv({ alpha: 1, A, x: vector(xs), beta: 0, y, trans: 'N' }, { arithmetic: 'dd', backend: 'js' });
      for (let i = 0; i < m; i++) expect([y.get(i).hi, y.get(i).lo]).toEqual(reference(rows[i]!, xs));
    }), { numRuns: 100 });
  });

  it('the generated DOT body is the specialised template (no cross terms with zero low parts)', () => {
    // The generated JavaScript's body (the default backend runs this DOT in WebAssembly).
    dot(vector([1, 2], { arithmetic: 'dd' }), vector([3, 4]), { backend: 'js' });
    const key = [...generatedSources.keys()].find((k) => k.includes('"kernel":"dot"') && k.includes('"x":{"storage":"f64","arithmetic":"dd"') && k.includes('"acc":"recursive"') && k.includes('"out":null'));
    expect(key).toBeDefined();
    const source = generatedSources.get(key!)!;
    expect(source).toContain(withoutGuards(ddTwoProdAccumulateSource(['s_hi', 's_lo'], 'xv', 'yv', ['s_hi', 's_lo'])));
    expect(source).not.toMatch(/_lo \* |\* 0\b/);
  });
});
