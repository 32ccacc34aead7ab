/**
 * Number of fast-check runs: the given default, multiplied by MODPREC_TEST_SCALE when set (e.g. 20 for a
 * long hunt for counterexamples; the default keeps test/core under half a minute on two cores).
 */
export function runs(base: number): number {
  const scale = Number(typeof process !== 'undefined' ? process.env.MODPREC_TEST_SCALE ?? 1 : 1);
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}
