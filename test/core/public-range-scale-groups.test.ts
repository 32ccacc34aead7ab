/**
 * fitScales through a sub-range. A scale is shared by a group (one per row, say), and the group can reach outside the
 * view: fitScales refits the scale from the view's values alone, so the group's elements outside the view keep their
 * stored integers and the values they represent change with the scale (as writeScale documents). The test suites'
 * own fixtures rely on this (scales fitted through a sub-range over padding). Pinned here: inside the view, within
 * half a quantum of the new values; outside, in a shared group, stored integer × new scale; in other groups, unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitScales, range, scaledReducedColMajor, scaledReducedRowMajor, span, toArray } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, mulRational, rational, subRational } from '../../src/testing/rational.js';

/** |stored × scale − v| ≤ scale / 2, exactly (in doubles the difference itself rounds). */
function withinHalfQuantum(storedInt: number, scale: number, v: number): boolean {
  const err = absRational(subRational(mulRational(exactOf(storedInt), exactOf(scale)), exactOf(v)));
  return compareRational(err, mulRational(absRational(exactOf(scale)), rational(1n, 2n))) <= 0;
}

const bounds = (n: number) => fc.tuple(fc.nat({ max: n }), fc.nat({ max: n })).map(([a, b]) => span(Math.min(a, b), Math.max(a, b)));

describe('fitScales on a sub-range', () => {
  it('fits the view, and the groups it shares with elements outside it rescale those elements', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.boolean(), fc.constantFrom('i8', 'i16'),
      fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 16, maxLength: 16 }), bounds(4), bounds(4),
      (m, n, perRow, col, storage, vals, b0, b1) => {
        const A = range((col ? scaledReducedColMajor : scaledReducedRowMajor)({ size: [m, n], storage, arithmetic: 'f64', scaleMask: [perRow, !perRow] }));
        fitScales(A.accessor, (i, j) => vals[(i * n + j) % 16]!);
        const before = [...toArray(A)];
        const stored = (i: number, j: number) => A.accessor.storage.decode(A.accessor.data as never, A.accessor.linearIndex([i, j])) as number;
        const storedBefore = Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) => stored(i, j)));
        const clip = (s: { begin: number; end: number }, k: number) => span(Math.min(s.begin, k), Math.min(s.end, k));
        const rows = clip(b0, m), cols = clip(b1, n);
        const V = A.sub(rows, cols);
        const newValue = (i: number, j: number) => 1000 - vals[(i + 3 * j) % 16]!;
        fitScales(V.accessor, newValue);
        const inView = (i: number, j: number) => i >= rows.begin && i < rows.end && j >= cols.begin && j < cols.end;
        // A group is touched when any element of it is in the view.
        const groupTouched = (i: number, j: number) => (perRow ? rows.begin <= i && i < rows.end && cols.end > cols.begin : cols.begin <= j && j < cols.end && rows.end > rows.begin);
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < n; j++) {
            const got = A.get(i, j);
            if (inView(i, j)) expect(withinHalfQuantum(stored(i, j), A.readScale(i, j), newValue(i - rows.begin, j - cols.begin))).toBe(true);
            else if (groupTouched(i, j)) {
              expect(stored(i, j)).toBe(storedBefore[i]![j]);
              expect(got).toBe(storedBefore[i]![j]! * A.readScale(i, j));
            } else expect(got).toBe(before[i * n + j]);
          }
        }
      }), { numRuns: 150 });
  });
});
