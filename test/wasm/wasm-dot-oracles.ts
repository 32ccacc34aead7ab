/**
 * Oracles shared by the WebAssembly DOT tests: the values a range's elements represent, and the kernel's documented
 * summation order on them.
 */
import type { Range } from '../../src/index.js';

/** The WebAssembly DOT's order on doubles: element i into partial sum i mod 8, then a fixed tree. */
export function laneOrderDot(x: readonly number[], y: readonly number[]): number {
  const p = new Array<number>(8).fill(0);
  for (let i = 0; i < x.length; i++) p[i % 8] = p[i % 8]! + x[i]! * y[i]!;
  return ((p[0]! + p[1]!) + (p[2]! + p[3]!)) + ((p[4]! + p[5]!) + (p[6]! + p[7]!));
}

/** The values a vector's elements represent, as the kernels read them in f64 arithmetic (value × scale). */
export function readValues(r: Range<1, any>): number[] {
  const a = r.accessor;
  return Array.from({ length: r.length() }, (_, i) => {
    const v = a.storage.decode(a.data as never, a.linearIndex([i])) as number;
    return a.scale ? v * a.scale.data[a.scaleIndex([i])]! : v;
  });
}
