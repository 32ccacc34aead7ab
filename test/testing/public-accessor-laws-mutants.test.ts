/**
 * The accessor laws catch a range that gets views or bounds wrong where one level of sub-range and in-range indices
 * cannot show it: a sub-range of a sub-range placed from the root (its begin added to the root's offset, not its
 * parent's), a range that reads and writes past its extent (a sub-range's set(length) wrote its parent's next element),
 * and a sub-range of a const range that accepts writes. All three passed every law before.
 */
import { describe, expect, it } from 'vitest';
import { type AccessorLawSubject, accessorLaws, checkAccessorLaws } from '../../src/testing/index.js';
import { colMajor, range, roundToF16, rowMajor, strided } from '../../src/index.js';
import { arrayRange } from './array-range.js';

const runs = { numRuns: 200 };
const subjectWith = (bug: string): AccessorLawSubject => ({
  name: `array range (${bug})`, round: (x) => Math.fround(x), make: () => arrayRange(new Array(8).fill(0), 0, 8, bug),
});
const lawNamed = (bug: string, name: string) => accessorLaws(subjectWith(bug)).find((l) => l.name === name)!;

describe('accessor laws: nested views, bounds and const views', () => {
  it('the correct array range passes every law, the new ones included', () => {
    checkAccessorLaws(subjectWith('none'), runs);
  });
  it('a sub-range of a sub-range placed from the root fails the composition law (and passes the one-level law)', () => {
    lawNamed('sub-from-root', 'sub-ranges alias the parent').check(runs);
    expect(() => lawNamed('sub-from-root', 'sub-ranges of sub-ranges compose').check(runs)).toThrow(/sub\(.*\)\.sub\(/);
  });
  it('a range without bounds checks fails the out-of-range law', () => {
    expect(() => lawNamed('unchecked', 'out-of-range indices are refused and write nothing').check(runs)).toThrow(/did not throw/);
  });
  it('a sub-range of a const range that accepts writes fails the const law', () => {
    expect(() => lawNamed('const-sub-writable', 'const ranges refuse writes').check(runs)).toThrow(/sub-range of a toConst\(\) range/);
  });
  it("modprec's own ranges keep the new laws: negative strides, padding, three dimensions", () => {
    checkAccessorLaws({ name: 'rowMajor f16 vector of 9, stride −3', round: (x) => roundToF16(x), make: () => range(rowMajor<1>({ size: [9], stride: -3, storage: 'f16', arithmetic: 'f64' })) }, { numRuns: 60 });
    checkAccessorLaws({ name: 'colMajor f32 3×4, leading dimension 5', round: (x) => Math.fround(x), make: () => range(colMajor<2>({ size: [3, 4], stride: 5, storage: 'f32', arithmetic: 'f64' })) }, { numRuns: 60 });
    checkAccessorLaws({ name: 'strided f64 2×3×2, strides [−7, 2, 1]', round: (x) => x, make: () => range(strided<3>({ size: [2, 3, 2], strides: [-7, 2, 1] })) }, { numRuns: 60 });
  });
});
