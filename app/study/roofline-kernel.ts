/**
 * The experimental roofline benchmark of seed 004, section 3 (after mixbench): every element is read
 * once, goes through k multiply-adds v ← v·a + b in registers, and is written once, so the arithmetic
 * intensity is 2k FLOPs per value. Two variants with identical loops and arithmetic that differ only in
 * how memory is accessed:
 * - `plain`: a hand-written loop over a typed array (fp64 over Float64Array, fp32 over Float32Array with
 *   every operation rounded by Math.fround — how the CPU emulates binary32 arithmetic);
 * - `accessor`: the same loop generated through the operands' accessors (storage codec fused with the
 *   conversion to the arithmetic), as every modprec kernel is.
 * The conversions are part of the access and are not counted as FLOPs (as in the paper).
 * A single chain of dependent multiply-adds would measure the latency of one operation, not the
 * throughput; like mixbench (several elements per thread), each loop iteration therefore works on
 * {@link ROOFLINE_CHAINS} elements, one from each quarter of the arrays, as independent chains.
 * @module
 */
import { ModprecError, type ArithmeticFormat, type ModprecErrorCode, type Range, type Register } from '../modprec.js';

/** Throws the library's typed error, in its message form. */
function fail(code: ModprecErrorCode, parameter: string, expected: string, value: unknown): never {
  throw new ModprecError(code, `invalid argument: ${parameter} ${expected}, got ${String(value)}`, parameter);
}

/** Multiplier and addend: exact in every format, and v ← v/2 + 1/4 stays near 1/2 (no overflow, no subnormals). */
export const ROOFLINE_A = 0.5;
/** See {@link ROOFLINE_A}. */
export const ROOFLINE_B = 0.25;

/** Independent chains per loop iteration (the arrays are split in this many equal parts). */
export const ROOFLINE_CHAINS = 4;

/** A compiled roofline loop: runs over the whole buffers it was made for. */
export type RooflineLoop = () => void;

function checkLength(n: number): number {
  if (!Number.isSafeInteger(n) || n < ROOFLINE_CHAINS || n % ROOFLINE_CHAINS !== 0) {
    fail('INVALID_SIZE', 'x.length', `must be a positive multiple of ${ROOFLINE_CHAINS}`, n);
  }
  return n / ROOFLINE_CHAINS;
}

const CHAINS = Array.from({ length: ROOFLINE_CHAINS }, (_, c) => c);

function checkMultiplyAdds(k: number): void {
  if (!Number.isSafeInteger(k) || k < 1) fail('INVALID_SIZE', 'multiplyAdds', 'must be a positive integer', k);
}

/**
 * The plain variant over typed arrays.
 * @param precision - `f64` (Float64Array, plain JS arithmetic) or `f32` (Float32Array, Math.fround)
 * @param multiplyAdds - k, the multiply-adds per element (intensity 2k FLOPs/value)
 * @param x - input buffer
 * @param y - output buffer, same length
 */
export function plainRooflineLoop(precision: 'f64' | 'f32', multiplyAdds: number, x: Float64Array | Float32Array, y: Float64Array | Float32Array): RooflineLoop {
  checkMultiplyAdds(multiplyAdds);
  const m = checkLength(x.length);
  if (y.length !== x.length) fail('DIMENSION_MISMATCH', 'y', `must have length ${x.length}`, y.length);
  const step = (c: number): string => (precision === 'f64' ? `v${c} = v${c} * a + b;` : `v${c} = F(F(v${c} * a) + b);`);
  // The same inner loop as the accessor variant, so the two differ only in their loads and stores. The
  // buffers and coefficients are call arguments, as in the generated kernel (closure constants would let
  // the JIT specialise the plain loop on them and the comparison would measure that, not the accessor).
  const source = `return function plainRoofline(x, y, a, b, m) {
  for (let i = 0; i < m; i++) {
    ${CHAINS.map((c) => `let v${c} = x[i + ${c} * m];`).join(' ')}
    for (let r = 0; r < ${multiplyAdds}; r++) { ${CHAINS.map(step).join(' ')} }
    ${CHAINS.map((c) => `y[i + ${c} * m] = v${c};`).join(' ')}
  }
};`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const loop = new Function('F', `'use strict';\n${source}`)(Math.fround) as (x: unknown, y: unknown, a: number, b: number, m: number) => void;
  return () => loop(x, y, ROOFLINE_A, ROOFLINE_B, m);
}

/**
 * The accessor variant: the same loop generated from the formats' own source templates — the storage
 * codec's read and write (`emitRead`/`emitWrite`), the conversions into and out of the arithmetic
 * (`emitConvert`/`emitExport`) and the arithmetic's multiply-add (`emitFma`) — which is how every
 * modprec kernel reads its operands. Packed (unit-stride, unscaled) ranges of kind `number` only: that is
 * what the roofline's configurations use.
 * @param multiplyAdds - k, the multiply-adds per element
 * @param x - input range
 * @param y - output range (writable, same length)
 * @param arithmetic - arithmetic format of the registers
 */
export function accessorRooflineLoop(multiplyAdds: number, x: Range<1, any>, y: Range<1, any>, arithmetic: ArithmeticFormat): RooflineLoop {
  checkMultiplyAdds(multiplyAdds);
  const m = checkLength(x.length());
  if (y.length() !== x.length()) fail('DIMENSION_MISMATCH', 'y', `must have length ${x.length()}`, y.length());
  for (const [name, r] of [['x', x], ['y', y]] as const) {
    const a = r.accessor;
    if (a.scale || a.strides[0] !== 1 || a.storage.kind !== 'number') fail('INVALID_STORAGE', name, 'must be a packed, unscaled range of a number storage', a.storage.name);
  }
  const ar = arithmetic;
  if (ar.kind !== 'number') fail('INVALID_FORMAT', 'arithmetic', 'must compute on plain numbers (kind number)', ar.name);
  const [sx, sy] = [x.accessor.storage, y.accessor.storage];
  const [a, b] = [ar.register('a'), ar.register('b')];
  const v = CHAINS.map((c) => ar.register(`v${c}`));
  const t: Register = { kind: 'number', names: ['t'] }; // a storage value on its way in or out
  const source = `return function accessorRoofline(x, xo, y, yo, alpha, beta, m) {
  ${[a, b, ...v].map((r) => ar.emitDeclare(r)).join(' ')} let t = 0;
  ${ar.emitFromNumber(a, 'alpha')} ${ar.emitFromNumber(b, 'beta')}
  for (let i = 0; i < m; i++) {
    ${CHAINS.map((c) => `${sx.emitRead('x', `xo + i + ${c} * m`, t)} ${ar.emitConvert(v[c]!, t, sx.significandBits)}`).join('\n    ')}
    for (let r = 0; r < ${multiplyAdds}; r++) { ${CHAINS.map((c) => ar.emitFma(v[c]!, v[c]!, a, b)).join(' ')} }
    ${CHAINS.map((c) => `${ar.emitExport(t, v[c]!, sy.significandBits)} ${sy.emitWrite('y', `yo + i + ${c} * m`, t)}`).join('\n    ')}
  }
};`;
  const helpers = { ...sx.helpers, ...sy.helpers, ...ar.helpers };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const loop = new Function(...Object.keys(helpers), `'use strict';\n${source}`)(...Object.values(helpers)) as
    (x: unknown, xo: number, y: unknown, yo: number, a: number, b: number, m: number) => void;
  const [xa, ya] = [x.accessor, y.accessor];
  return () => loop(xa.data, xa.offset, ya.data, ya.offset, ROOFLINE_A, ROOFLINE_B, m);
}
