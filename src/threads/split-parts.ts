/**
 * Where a call is cut: a function of the length, the work per element and the pool's thread count only, so that a
 * result depends on nothing else (not on timing, not on which thread finishes first).
 * @module
 */

/** Part boundaries are multiples of this many elements (a 64-byte line of f64, and whole SIMD vectors). */
export const PART_ALIGNMENT = 16;

/**
 * The contiguous parts [lo, hi) of 0..length: at most `threads`, none with less than `minWork` work (a part of
 * k elements does k × `workPerElement`), all but the last a multiple of {@link PART_ALIGNMENT} long.
 * One part, [0, length), when the call is too small to split.
 */
export function splitPoints(length: number, workPerElement: number, threads: number, minWork: number): [number, number][] {
  const byWork = Math.floor((length * Math.max(1, workPerElement)) / Math.max(1, minWork));
  const wanted = Math.max(1, Math.min(threads, byWork, Math.ceil(length / PART_ALIGNMENT)));
  const chunk = Math.ceil(length / wanted / PART_ALIGNMENT) * PART_ALIGNMENT;
  const parts: [number, number][] = [];
  for (let lo = 0; lo < length || parts.length === 0; lo += chunk) parts.push([lo, Math.min(length, lo + chunk)]);
  return parts;
}
