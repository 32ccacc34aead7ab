/**
 * Conversion to scaled-integer storage (i8, i16) on the device, in two passes: one thread per block finds
 * the block's largest magnitude and its scale (the smallest binary32 s with s·qmax ≥ max, as the host
 * encoder chooses it), then one thread per output word rounds each value to the nearest integer multiple
 * of its block's scale and packs the integers. Values pass through float-float, so sources with more than
 * 24 significand bits (f64, ff) are not rounded twice.
 *
 * @module
 */
import { asPair, type GpuArithmetic } from './arithmetic.js';
import type { DeviceArray } from './device-array.js';
import type { GpuStorageFormat } from './formats.js';
import { arrayArgs, bindArray, kernelSource, memo } from './kernel-common.js';
import { getProgram, type BoundArray, type Pass } from './program.js';
import type { GpuRuntime } from './runtime.js';

/** Largest integer magnitude of a scaled format (127 for i8, 32767 for i16). */
export function integerMax(format: GpuStorageFormat): number {
  return 2 ** format.significandBits - 1;
}

/**
 * For a binary64 source: a test of element k's high word noting a nonzero double below 2^-126, which the
 * read into float-float gives as ±0 (mpF64).
 */
function tinyDoubleTest(x: DeviceArray): string[] {
  if (x.format.name !== 'f64') return [];
  return [
    'const tw = mpBits(X[k * 2 + 1]);',
    'if (((tw >> 20) & 2047) < 897 && ((tw & 2147483647) | mpBits(X[k * 2])) !== 0) { tiny = 1; }',
  ];
}

/** Thread per block: the block's scale, or −1 when an element is not finite or the scale underflows. */
function scaleSource(x: DeviceArray, arithmetic: GpuArithmetic): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ['n', 'Integer'] as const, ['block', 'Integer'] as const, ['qmax', 'Float'] as const];
  const read = x.format.emitRead('X', 'k', 'v', arithmetic);
  const body = [
    'const b0 = this.thread.x * block;',
    'let b1 = b0 + block;',
    'if (b1 > n) { b1 = n; }',
    'let mh = 0.0;',
    'let ml = 0.0;',
    'let bad = mpI32(0);',
    'let tiny = mpI32(0);',
    'for (let k = b0; k < b1; k++) {',
    read.code,
    `const pair = ${asPair(read.register)}; let h = pair[0]; let l = pair[1];`,
    // Bit tests, not comparisons: WGSL lets compilers assume that NaN and ∞ never occur.
    'if ((mpBits(h) & 2147483647) >= 2139095040) { bad = 1; }',
    // A nonzero magnitude below 2^-126 (a binary32 subnormal, which a device may flush to zero in every
    // comparison, or a double that the read turned into ±0): noted from the bits, so that a block whose maximum
    // it is fails as on every other device instead of reading as a zero block.
    'if ((mpBits(h) & 2147483647) !== 0 && (mpBits(h) & 2139095040) === 0) { tiny = 1; }',
    ...tinyDoubleTest(x),
    'if (h < 0.0) { h = -h; l = -l; }',
    'if (h > mh || (h === mh && l > ml)) { mh = h; ml = l; }',
    '}',
    'if (bad !== 0) { return -1.0; }',
    // The largest element is below 2^-126 (mh is then zero or subnormal): its scale cannot be a normal binary32.
    'if (tiny !== 0 && (mpBits(mh) & 2139095040) === 0) { return -1.0; }',
    'return mpScaleOf(mh, ml, qmax);',
  ];
  return { source: kernelSource(args, body), args };
}

/** Thread per output word: the packed integers of its elements. */
function wordSource(x: DeviceArray, target: GpuStorageFormat, arithmetic: GpuArithmetic): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ['Sc', 'Array'] as const, ['n', 'Integer'] as const, ['block', 'Integer'] as const, ['qmax', 'Float'] as const];
  const epw = target.elementsPerWord;
  const bits = 32 / epw;
  const mask = 2 ** bits - 1;
  const body: string[] = ['let word = mpI32(0);'];
  for (let e = 0; e < epw; e++) {
    const read = x.format.emitRead('X', `k${e}`, `v${e}`, arithmetic);
    body.push(
      `let k${e} = this.thread.x * ${epw} + ${e};`,
      `let in${e} = mpI32(1);`,
      `if (k${e} >= n) { k${e} = n - 1; in${e} = 0; }`,
      read.code,
      `const q${e} = mpQuantize(${asPair(read.register)}, Sc[mpIdiv(k${e}, block)], qmax) * in${e};`,
      `word = word | ((q${e} & ${mask}) << ${e * bits});`,
    );
  }
  body.push('return mpFloat(word);');
  return { source: kernelSource(args, body), args };
}

/**
 * The two passes converting `x` into the scaled-integer array `out` (same length; its scales buffer and
 * scale block are used).
 * @param runtime - the runtime
 * @param x - the source (any GPU format)
 * @param out - the destination, in i8 or i16
 * @param arithmetic - float-float (the registers the reads produce)
 * @returns the passes, to be submitted together
 */
export async function scaledConvertPasses(runtime: GpuRuntime, x: DeviceArray, out: DeviceArray, arithmetic: GpuArithmetic): Promise<Pass[]> {
  const target = out.format;
  const key = `${x.format.name}|${target.name}`;
  const scaleSpec = memo(`convert-scale|${key}`, () => scaleSource(x, arithmetic));
  const wordSpec = memo(`convert-words|${key}`, () => wordSource(x, target, arithmetic));
  const scaleProgram = await getProgram(runtime.context, { source: scaleSpec.source, args: scaleSpec.args, components: 1 });
  const wordProgram = await getProgram(runtime.context, { source: wordSpec.source, args: wordSpec.args, components: 1 });
  const scalars: Record<string, number> = { n: x.length, block: out.scaleBlock, qmax: integerMax(target) };
  const arrays: Record<string, BoundArray> = {};
  bindArray('X', x, arrays, scalars);
  const blocks = Math.ceil(x.length / out.scaleBlock);
  return [
    { program: scaleProgram, arrays, scalars, output: { buffer: out.scales! }, threads: blocks },
    { program: wordProgram, arrays: { ...arrays, Sc: { buffer: out.scales! } }, scalars, output: { buffer: out.buffer! }, threads: Math.ceil(x.length / target.elementsPerWord) },
  ];
}
