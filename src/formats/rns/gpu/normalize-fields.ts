/**
 * Source of the device rounding's words pass (normalize-webgpu.ts): the scalar words of a rounded number — sign,
 * exponent and the interval evaluation of device-eval.ts — written by the threads of that pass that are not residue
 * threads.
 *
 * @module
 */
import { WORD_BIAS, type RnsDeviceSet } from './device-set.js';
import type { AccumulatorView } from './accumulator-view.js';

const B = WORD_BIAS;

/** ⌊a·c/2^24⌋ (⌈…⌉ when `up`) into `out`, exactly in 32-bit integers (device-eval.ts's `mulShift24`). */
function mulShiftSource(a: string, c: string, up: string, out: string): string {
  return `
const ah${out} = ${a} >> 12; const al${out} = ${a} & 4095; const ch${out} = ${c} >> 12; const cl${out} = ${c} & 4095;
const lw${out} = al${out} * cl${out};
const md${out} = ah${out} * cl${out} + al${out} * ch${out} + (lw${out} >> 12);
let ${out} = ah${out} * ch${out} + (md${out} >> 12);
if (${up} && ((md${out} & 4095) !== 0 || (lw${out} & 4095) !== 0)) { ${out} = ${out} + 1; }`;
}

/**
 * Source returning field f = slot − n (0 sign, 1 exponent G + k, 2 q_lo, 3 E, 4 q_up, 5 E) of element e, with `neg`,
 * `b` (bit length before rounding), `T` (its top 24 bits), `k` (the shift) and `count` in scope; G and the sign of a
 * zero come from the accumulator's view.
 * @param set - the GPU moduli set
 * @param view - where G and the sign of a zero are read
 * @returns the source
 */
export function fieldWordsSource(set: RnsDeviceSet, view: AccumulatorView): string {
  const n = set.size;
  return `const f = slot - ${n};
if (f === 0) {
  if (b === 0) { return mpFloat(${view.zeroSign('e')} + ${B}); }
  return mpFloat(neg + ${B});
}
if (f === 1) {
  if (b === 0) { return mpFloat(${B}); }
  return mpFloat(${view.grid('e')} + k + ${B});
}
if (b === 0) { return mpFloat(${B}); }
if (f === 3 || f === 5) { return mpFloat(b - k - 24 - ${set.bitsM} + 1 + ${B}); }
if (f === 2) {
  ${mulShiftSource('T', String(set.mu), 'false', 'ql')}
  return mpFloat(ql + ${B});
}
let tu = T;
if (k > 0) { tu = T + 2; } else { if (b > 24) { tu = T + 1; } }
${mulShiftSource('tu', String(set.mu + 1), 'true', 'qu')}
return mpFloat(qu + ${B});
`;
}
