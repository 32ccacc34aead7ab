/**
 * The first half of the CPU's scaled store of a floating-point range (f64, f32, f16, bf16 with the CPU's scale model),
 * on the device: each element's quotient value / scale in the arithmetic, as the CPU's accessor computes it —
 * `ar.div(v, ar.fromNumber(scale))`. f32: the scale rounded to the nearest binary32 (subnormals included,
 * `mpF64ToF32`), then the correctly rounded binary32 quotient (`mpDivRn`); ff: the scale as the pair formats.ff makes
 * of a double (`mpF64`), then formats.ff's division with correctly rounded binary32 steps (`ffDivRn`). Both are the
 * CPU's bits whatever the adapter's division (exact-division.ts); scales of ±0, ±∞ and NaN give the IEEE quotients the
 * CPU gets. dd (values the kernel's dd pairs): the CPU's ddDiv replayed step by step in binary64 and exported as the
 * CPU's toKind exports it (`mpDdScaledQuotient`, formats/dd/dd-gpu-scaled-quotient.ts, with its proof), given as the
 * pair (x, 0) of that double — the CPU's bits up to a NaN's sign. The second half — the quotient rounded to the storage
 * and written into the range's view of its span, every other element keeping its bits — is the update 1·q into that
 * view (src/backends/webgpu-bridge/gpu-runs.ts), the same write as an unscaled output's.
 *
 * One pass, a thread per element of the view: its scale is element scaleOffset + i·scaleStride of the range's fp64
 * scales (uploaded as their words), scaleStride 0 where the mask leaves the dimension unscaled. Values and scales over
 * one storage binding go in windows of elements (multiples of 64, so every binding starts on a 256-byte boundary), each
 * binding its values, its quotients and the scales it reads.
 *
 * @module
 */
import { bindingLimit, DeviceArray } from './device-array.js';
import { kernelSource, memo } from './kernel-common.js';
import { getProgram, submitPasses, type ArgType, type Pass } from './program.js';
import type { ScaledRangeLike } from './range-scale.js';
import { createWordBuffer } from './runtime.js';
import { hostDefaultNaN } from './exact-division.js';

/** The host's 0/0 as binary32 bits: NaN quotients carry the CPU's sign. */
const DEFAULT_NAN = hostDefaultNaN();

/** Storage formats whose scaled store runs here (the integers have scaled-store.ts). */
const FLOAT_STORAGES = new Set(['f64', 'f32', 'f16', 'bf16']);

/** Thread per element: the arithmetic's quotient of its value by its scale. */
function quotientSource(components: 1 | 2 | 4): { source: string; args: (readonly [string, ArgType])[] } {
  // A window of elements from I0 (D and the output bound from it), the scales bound from scale QB; Nw: whether the
  // storage is narrower than binary64 (dd only).
  const args: (readonly [string, ArgType])[] = [['D', 'Array'], ['Rs', 'Array'], ['So', 'Integer'], ['Ss', 'Integer'], ['Dn', 'Integer'], ['I0', 'Integer'], ['QB', 'Integer'], ['Nw', 'Integer']];
  const body = ['const i = this.thread.x;', 'const q = So + (i + I0) * Ss - QB;', 'const sh = mpBits(Rs[2 * q + 1]);', 'const sl = mpBits(Rs[2 * q]);'];
  body.push(components === 4
    ? 'return mpDdScaledQuotient([D[4 * i], D[4 * i + 1], D[4 * i + 2], D[4 * i + 3]], [Rs[2 * q], Rs[2 * q + 1]], Nw);'
    : components === 2
      ? 'return ffDivRn([D[2 * i], D[2 * i + 1]], mpF64(sh, sl), Dn);'
      : 'return mpDivRn(D[i], mpF64ToF32(sh, sl), Dn);');
  return { source: kernelSource(args, body), args };
}

/** Elements per window of the pass: a multiple of 64 whose values (c words each) and scales (8 bytes, |ss| apart) fit a binding. */
function windowElements(c: number, ss: number, limit: number): number {
  // The scales are bound from the 256-byte boundary below the first: up to 31 more.
  const byScales = ss === 0 ? Infinity : Math.floor((limit / 8 - 32) / Math.abs(ss));
  return Math.floor(Math.min(limit / (4 * c), byScales) / 64) * 64;
}

/**
 * Whether {@link deviceScaledQuotients} takes `r` with values `d`: a scaled 1-D range stored in f64, f32, f16 or bf16,
 * values in the f32 or ff arithmetic's words (one or two per element) or dd pairs on the device, and windows of 64 elements at the
 * least whose values and scales fit one storage binding each (always, unless the limit is lowered far below WebGPU's).
 * @param r - the output range
 * @param d - its values, as the kernel left them
 * @param arithmetic - the arithmetic's name
 * @returns true when the quotients run on the device
 */
export function quotientsOnDevice(r: ScaledRangeLike, d: DeviceArray, arithmetic: string): boolean {
  const a = r.accessor;
  if (!FLOAT_STORAGES.has(a.storage.name) || !a.scale || a.dimensionality !== 1 || !d.onDevice || d.isView) return false;
  if (!(arithmetic === 'f32' && d.format.wordsPerElement === 1) && !(arithmetic === 'ff' && d.format.wordsPerElement === 2) && d.format.name !== 'dd') return false;
  return windowElements(d.format.wordsPerElement, a.scale.mask[0] ? a.scale.strides[0]! : 0, bindingLimit(d.runtime!)) >= 64;
}

let runs = 0;

/**
 * How many quotient passes ran so far (tests check that a case took the device path).
 * @returns the count
 */
export function deviceScaledQuotientCount(): number {
  return runs;
}

/**
 * The quotients value / scale of the output range `r`, in the arithmetic's words, as the CPU's scaled store computes
 * them before rounding to the storage (see the module comment).
 * @param r - a scaled 1-D range in a floating-point storage ({@link quotientsOnDevice})
 * @param d - its values, packed, one f32 word, ff pair or dd pair per element
 * @returns a new packed array of the quotients, in `d`'s format (the caller destroys it)
 * @example
 * ```ts
 * const q = await deviceScaledQuotients(y, values);
 * await gpuUpdate({ alpha: 1, x: q, beta: 0, out: await toDevice(unscaledViewOf(y)) });
 * ```
 */
export async function deviceScaledQuotients(r: ScaledRangeLike, d: DeviceArray): Promise<DeviceArray> {
  const a = r.accessor;
  const sc = a.scale!;
  const n = a.size[0]!;
  const runtime = d.runtime!;
  const components = d.format.wordsPerElement as 1 | 2 | 4;
  const out = new DeviceArray(runtime, d.format, n, 256, undefined, '');
  if (n === 0) return out;
  runs++;
  const spec = memo(`scaledQuotient|${components}`, () => quotientSource(components));
  const program = await getProgram(runtime.context, { source: spec.source, args: spec.args, components });
  const scaleWords = new Uint32Array(sc.data.buffer, sc.data.byteOffset, sc.data.length * 2);
  const scales = createWordBuffer(runtime.context, Math.max(2, scaleWords.length), scaleWords);
  const ss = sc.mask[0] ? sc.strides[0]! : 0;
  const size = windowElements(components, ss, bindingLimit(runtime));
  try {
    // Values, scales and quotients over one storage binding go in windows of elements (one window otherwise).
    const passes: { pass: Pass }[] = [];
    for (let i0 = 0; i0 < n; i0 += size) {
      const count = Math.min(size, n - i0);
      const [qa, qb] = [sc.offset + i0 * ss, sc.offset + (i0 + count - 1) * ss];
      const qBase = Math.floor(Math.min(qa, qb) / 32) * 32;
      const words = { offset: i0 * components * 4, size: count * components * 4 };
      passes.push({ pass: {
        program,
        arrays: { D: { buffer: d.buffer!, ...words }, Rs: { buffer: scales, offset: qBase * 8, size: (Math.max(qa, qb) - qBase + 1) * 8 } },
        scalars: { So: sc.offset, Ss: ss, Dn: DEFAULT_NAN, I0: i0, QB: qBase, Nw: a.storage.name === 'f64' ? 0 : 1 },
        output: { buffer: out.buffer!, ...words }, threads: count,
      } });
    }
    submitPasses(runtime.context, passes);
  } finally {
    scales.destroy();
  }
  return out;
}
