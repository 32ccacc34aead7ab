import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  blockColMajor, colMajor, range, reducedRowMajor, rowMajor, scaledReducedRowMajor, strided,
} from '../../src/index.js';
import { roundToBf16, roundToF16, roundToInt16, roundToInt8 } from '../../src/formats/convert/index.js';
import { type AccessorLawSubject, accessorLaws, checkAccessorLaws } from '../../src/testing/index.js';
import { arrayRange } from './array-range.js';

const runs = { numRuns: 150 };

const subjects: AccessorLawSubject[] = [
  { name: 'rowMajor f64 3×4', round: (x) => x, make: () => range(rowMajor<2>({ size: [3, 4] })) },
  {
    name: 'reducedRowMajor f32→f64 3×4, leading dimension 6 (padding)', round: (x) => Math.fround(x),
    make: () => range(reducedRowMajor<2>({ size: [3, 4], stride: 6, storage: 'f32', arithmetic: 'f64' })),
  },
  {
    // A written number rounds once, straight to fp16 storage (docs/guide.md): not through the fp32
    // arithmetic first, which would round twice (e.g. −0.00028693674539681524).
    name: 'colMajor f16→f32 4×3, leading dimension 5', round: (x) => roundToF16(x),
    make: () => range(colMajor<2>({ size: [4, 3], stride: 5, storage: 'f16', arithmetic: 'f32' })),
  },
  {
    name: 'blockColMajor bf16→f64 2×3×2', round: (x) => roundToBf16(x),
    make: () => range(blockColMajor({ size: [2, 3, 2], storage: 'bf16', arithmetic: 'f64' })),
  },
  {
    name: 'rowMajor i16→f64 vector of 7, stride −2', round: (x) => roundToInt16(x),
    values: fc.double({ min: -40000, max: 40000, noNaN: true }),
    make: () => range(rowMajor<1>({ size: [7], stride: -2, storage: 'i16', arithmetic: 'f64' })),
  },
  {
    name: 'strided f64 2×3 with strides [1, 2] and offset 3', round: (x) => x,
    make: () => range(strided<2>({ size: [2, 3], strides: [1, 2], offset: 3 })),
  },
  {
    name: 'scaledReducedRowMajor i8→f64 3×4, one scale per row',
    round: (x, [i]) => roundToInt8(x / SCALES[i!]!) * SCALES[i!]!,
    values: fc.double({ min: -300, max: 300, noNaN: true }),
    make: () => range(scaledReducedRowMajor<2>({
      size: [3, 4], storage: 'i8', arithmetic: 'f64', scaleMask: [true, false], scale: Float64Array.from(SCALES),
    })),
  },
];
const SCALES = [0.5, 2, 0.01];

describe('accessor laws on modprec\'s accessors', () => {
  for (const subject of subjects) {
    describe(subject.name, () => {
      let laws: ReturnType<typeof accessorLaws> = [];
      try {
        laws = accessorLaws(subject);
      } catch (error) {
        it('can be constructed', () => { throw error; });
      }
      for (const law of laws) it(law.name, () => law.check(runs));
    });
  }

  it('a number written through fp32 arithmetic into fp16 storage rounds once (a value where twice differs)', () => {
    const x = -0.00028693674539681524;
    expect(roundToF16(Math.fround(x))).not.toBe(roundToF16(x));
    const r = subjects.find((s) => s.name.startsWith('colMajor f16'))!.make() as unknown as { set(i: number, j: number, v: number): void; get(i: number, j: number): number };
    r.set(1, 2, x);
    expect(Number(r.get(1, 2))).toBe(roundToF16(x));
  });
});

describe('accessor laws catch broken ranges', () => {
  const subjectWith = (bug: string): AccessorLawSubject => ({
    name: `array range (${bug})`, round: (x) => Math.fround(x), make: () => arrayRange(new Array(8).fill(0), 0, 8, bug),
  });
  const lawNamed = (bug: string, name: string) => accessorLaws(subjectWith(bug)).find((l) => l.name === name)!;

  it('the correct array range passes every law', () => {
    checkAccessorLaws(subjectWith('none'), runs);
  });
  it('a write that skips the storage rounding fails write-then-read', () => {
    expect(() => lawNamed('no-rounding', 'write then read gives the storage-rounded value').check(runs)).toThrow(/expected/);
  });
  it('a write that spills into the next element fails the sentinel law', () => {
    expect(() => lawNamed('spills', 'a write touches only its element').check(runs)).toThrow(/changed element/);
  });
  it('a sub-range that forgets its begin fails the aliasing law', () => {
    expect(() => lawNamed('sub-ignores-begin', 'sub-ranges alias the parent').check(runs)).toThrow(/sub\(/);
  });
  it('a const range that accepts writes fails the const law', () => {
    expect(() => lawNamed('const-writes', 'const ranges refuse writes').check(runs)).toThrow(/did not throw/);
  });
});
