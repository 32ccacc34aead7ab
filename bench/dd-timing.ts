/**
 * Shared helpers of the double-double benchmarks: round-robin timing (so machine noise hits every variant
 * alike) and reproducible random data.
 * @module
 */

/** Median ms of each variant, run round-robin `reps` times after one warm-up round. */
export function race(variants: Record<string, () => unknown>, reps: number): Record<string, number> {
  const names = Object.keys(variants);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  let sink = 0;
  for (let r = -1; r < reps; r++) {
    for (const n of names) {
      const t0 = performance.now();
      const v = variants[n]!();
      const t = performance.now() - t0;
      if (typeof v === 'number') sink += v;
      if (r >= 0) times[n]!.push(t);
    }
  }
  if (Number.isNaN(sink)) throw new Error('a benchmark variant returned NaN');
  return Object.fromEntries(names.map((n) => {
    const t = times[n]!.sort((a, b) => a - b);
    return [n, t[t.length >> 1]!];
  }));
}

/** n reproducible uniform values in [−1, 1). */
export function randomVector(n: number, seed: number): Float64Array {
  const a = new Float64Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2 ** 31 - 1;
  }
  return a;
}

/** Formats a number with `digits` significant digits. */
export function fmt(x: number, digits = 3): string {
  return Number(x.toPrecision(digits)).toString();
}
