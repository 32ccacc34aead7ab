/**
 * The index law every layout must satisfy: element (i0, …) of the view is storage element `expected(index)`
 * (a hand-written formula per layout), reads see exactly that element, and a write changes exactly that element.
 */
import { expect } from 'vitest';
import type { Accessor } from '../../../accessors/accessor.js';

/** Every index tuple of a shape, in row-major order. */
export function allIndices(size: readonly number[]): number[][] {
  const out: number[][] = [];
  const walk = (prefix: number[]): void => {
    if (prefix.length === size.length) { out.push(prefix); return; }
    for (let i = 0; i < size[prefix.length]!; i++) walk([...prefix, i]);
  };
  walk([]);
  return out;
}

/** A Float64Array whose element k holds the marker k + 0.5, so a read tells which element it came from. */
export function markedBuffer(length: number): Float64Array {
  return Float64Array.from({ length }, (_, k) => k + 0.5);
}

/**
 * Checks the accessor (fp64 storage over `data`, a {@link markedBuffer}) against the formula: every read returns
 * the marker of `expected(index)`, and writing at `written` changes that storage element and no other.
 */
export function expectLayout(
  accessor: Accessor<any, number>, data: Float64Array, expected: (index: readonly number[]) => number, written: readonly number[] | undefined,
): void {
  for (const index of allIndices(accessor.size as readonly number[])) {
    const position = expected(index);
    expect(position, `index ${index}`).toBeGreaterThanOrEqual(0);
    expect((accessor.get as (...i: number[]) => number)(...index), `index ${index}`).toBe(position + 0.5);
  }
  if (!written) return;
  const before = data.slice();
  (accessor.set as (...a: number[]) => void)(...written, -7);
  const target = expected(written);
  for (let k = 0; k < data.length; k++) expect(data[k], `storage element ${k} after writing ${written}`).toBe(k === target ? -7 : before[k]);
}

/** Length a buffer needs so that every position of `positions` (and some padding) fits. */
export function bufferLengthFor(positions: readonly number[], padding = 3): number {
  return (positions.length ? Math.max(...positions) : 0) + 1 + padding;
}
