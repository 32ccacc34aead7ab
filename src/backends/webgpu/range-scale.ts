/**
 * Scaled ranges on the device, with the CPU's scale model (accessors/scaled-reduced.ts): value = stored × scale,
 * the scale indexed by the dimensions of the range's scale mask. The storage goes up as the bytes of the span the
 * range covers (as an unscaled range does), its fp64 scales as their exact words in a second buffer, and the
 * layout as uniforms; a read of element p (an index into the span) finds its scale from p alone, so every kernel
 * reads such an array through its format's `emitRead`, whatever index arithmetic it does (vectors, matrix views,
 * ELL values):
 *
 *   d = p − base,  a = ⌊d / major⌋,  b = (d − a·major) / minor,  q = scaleOffset + a·qMajor + b·qMinor
 *
 * where major/minor are the strides of the range's two dimensions (larger |stride| first; a vector has one) and
 * qMajor/qMinor their scale strides (0 where the mask is false). Exact whenever the layout does not interleave
 * its dimensions (minor·(minorSize − 1) < major, both positive), which every row- or column-major range and
 * sub-range satisfies; a vector may have any stride. A mask without a true dimension reads one scale (no
 * division at all).
 *
 * The read then is the CPU's: the stored value read into the arithmetic (exact for integers and the unscaled
 * formats' own reads), the scale read as an f64 value is (in f32: the nearest binary32, in ff: the pair
 * `formats.ff` makes of a double; ±∞ beyond binary32, ±0 below 2^-126; in dd: the double, exactly), and one
 * multiplication in the arithmetic (ffMul of the pairs, as formats.ff's mul on the CPU; dd: exact, as formats.dd's).
 * @module
 */
import { fail } from '../../core/errors.js';
import type { GpuPartRegister, GpuStoragePart } from '../../formats/common/gpu-part.js';
import { i8WordsGpuPart, i16WordsGpuPart } from '../../formats/scaled-integer/integer-words-gpu-part.js';
import type { GpuArithmetic } from './arithmetic.js';
import { DeviceArray, runtimeOrFallback } from './device-array.js';
import { gpuFormat } from './formats.js';
import { createWordBuffer } from './runtime.js';

/** The parts of a scaled core range the upload reads. */
export interface ScaledRangeLike {
  readonly accessor: {
    readonly dimensionality: number;
    readonly size: readonly number[];
    readonly strides: readonly number[];
    readonly offset: number;
    readonly data: ArrayBufferView;
    readonly storage: { readonly name: string };
    readonly scale?: { readonly data: Float64Array; readonly offset: number; readonly strides: readonly number[]; readonly mask: readonly boolean[] } | undefined;
    extent(): [number, number];
  };
}

/** Storage formats a scaled range may have on the device: the integers' words, the floats' own GPU parts. */
const BASES: Readonly<Record<string, () => GpuStoragePart>> = {
  i8: () => i8WordsGpuPart,
  i16: () => i16WordsGpuPart,
  f64: () => gpuFormat('f64'),
  f32: () => gpuFormat('f32'),
  f16: () => gpuFormat('f16'),
  bf16: () => gpuFormat('bf16'),
};

/**
 * Whether a scaled range stored in `storage` can be read on the device.
 * @param storage - the storage format's name
 * @returns true for i8, i16, f64, f32, f16, bf16
 */
export function scaledStorageOnDevice(storage: string): boolean {
  return storage in BASES;
}

const parts = new Map<string, GpuStoragePart>();

/**
 * The read of a range-scaled array: `base`'s read times the element's scale.
 * @param base - how the stored values are read
 * @param indexed - whether the scale depends on the element (false: one scale for the whole range)
 * @returns the part (cached: its name keys the generated programs)
 */
export function rangeScaledPart(base: GpuStoragePart, indexed: boolean): GpuStoragePart {
  const name = `${base.name}*scale${indexed ? '[p]' : ''}`;
  let part = parts.get(name);
  if (part) return part;
  const refuse = (): never => { throw new Error(`internal: ${name} is read through a range's scales only`); };
  part = {
    ...base,
    name,
    scaled: false,
    writable: false,
    vectorRead: undefined,
    pairRead: undefined,
    encode: refuse,
    decode: refuse,
    emitReturn: refuse,
    readArgs: (array) => [
      ...base.readArgs(array),
      [`${array}Rs`, 'Array'],
      [`${array}So`, 'Integer'],
      ...(indexed ? (['Sb', 'Sm', 'Sn', 'Qm', 'Qn'] as const).map((s) => [`${array}${s}`, 'Integer'] as const) : []),
    ],
    emitRead(array, index, dst, arithmetic) {
      // Kernels pass their arithmetic part as the read target; the scale is multiplied in in that arithmetic.
      const ar = arithmetic as GpuArithmetic;
      // Names of the form <dst>S… do not meet a kernel's own locals (kernels name theirs in lower case).
      const stored = base.emitRead(array, index, `${dst}Sv`, arithmetic);
      const lines = [stored.code];
      let q = `${array}So`;
      if (indexed) {
        q = `${dst}Sq`;
        lines.push(`const ${dst}Sd = (${index}) - ${array}Sb; const ${dst}Sa = mpIdiv(${dst}Sd, ${array}Sm);`,
          `const ${q} = ${array}So + ${dst}Sa * ${array}Qm + mpIdiv(${dst}Sd - ${dst}Sa * ${array}Sm, ${array}Sn) * ${array}Qn;`);
      }
      let a: GpuPartRegister, s: GpuPartRegister;
      if (ar.components === 4) {
        // dd: the fp64 scale's two words as an f64 register (low word first), exact in the register, and the product
        // stored × scale exact there (at most 53 + 53 bits) — the CPU's dd product of the two doubles.
        a = stored.register;
        lines.push(`const ${dst}Sw = [${array}Rs[2 * ${q}], ${array}Rs[2 * ${q} + 1]];`);
        lines.push(ar.declareMul(dst, a, { kind: 'f64', name: `${dst}Sw` }));
        return { code: lines.join(' '), register: ar.register(dst) };
      }
      // The fp64 scale's words, low word first; read as an f64 element is (mpF64: the pair formats.ff makes).
      lines.push(`const ${dst}Ss = mpF64(mpBits(${array}Rs[2 * ${q} + 1]), mpBits(${array}Rs[2 * ${q}]));`);
      if (ar.components === 2) {
        // Both as pairs, so the product is ffMul's (formats.ff's mul on the CPU), not the word × pair shortcut.
        a = stored.register.kind === 'ff' ? stored.register : { kind: 'ff', name: `${dst}Sp` };
        if (stored.register.kind !== 'ff') lines.push(`const ${dst}Sp = [${stored.register.name}, 0.0];`);
        s = { kind: 'ff', name: `${dst}Ss` };
      } else {
        a = stored.register;
        lines.push(`const ${dst}Sh = ${dst}Ss[0];`);
        s = { kind: 'f32', name: `${dst}Sh` };
      }
      lines.push(ar.declareMul(dst, a, s));
      return { code: lines.join(' '), register: ar.register(dst) };
    },
  };
  parts.set(name, part);
  return part;
}

/** Where element (0, …) of a scaled range sits in its span, its strides, and its scales' uniforms. */
interface ScaleLayout {
  readonly scalars: Record<string, number>;
  readonly indexed: boolean;
}

/**
 * The uniforms that find element p's scale (see the module comment), or a `BACKEND_LIMIT` error naming
 * `parameter` for a matrix whose layout interleaves its dimensions.
 */
function scaleLayout(r: ScaledRangeLike, base: number, parameter: string): ScaleLayout {
  const a = r.accessor;
  const sc = a.scale!;
  const dims = a.size.map((size, d) => ({ size, stride: a.strides[d]!, q: sc.mask[d] ? sc.strides[d]! : 0 })).filter((d) => d.size > 1);
  const indexed = dims.some((d) => d.q !== 0);
  const scalars: Record<string, number> = { So: sc.offset };
  if (!indexed) return { scalars, indexed };
  dims.sort((x, y) => Math.abs(y.stride) - Math.abs(x.stride));
  const [major, minor] = dims as [typeof dims[0], typeof dims[0] | undefined];
  if (minor && !(minor.stride > 0 && major.stride > 0 && minor.stride * (minor.size - 1) < major.stride)) {
    fail('BACKEND_LIMIT', parameter, `is a scaled matrix whose layout (strides ${a.strides.join(', ')}) interleaves its dimensions, which the GPU cannot index its scales in; copy it to a row- or column-major range, or use backend 'cpu'`, a.strides);
  }
  Object.assign(scalars, { Sb: base, Sm: major.stride, Qm: major.q, Sn: minor ? minor.stride : 1, Qn: minor ? minor.q : 0 });
  return { scalars, indexed };
}

/**
 * Uploads a scaled 1-D or 2-D range (stored in i8, i16, f64, f32, f16 or bf16) as the bytes of its storage span and
 * its scales as fp64 words; the array reads element p as stored × its scale, as the CPU reads the range.
 * @param r - the range
 * @param parameter - the operand's name (for errors)
 * @returns the span array, the offset of element (0, …) in it, and the range's strides
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` for another storage, `BACKEND_LIMIT` for an interleaved layout
 */
export async function toDeviceScaledSpan(r: ScaledRangeLike, parameter: string): Promise<{ span: DeviceArray; offset: number; strides: readonly number[] }> {
  const a = r.accessor;
  const make = BASES[a.storage.name];
  if (!a.scale || !make) return fail('INVALID_FORMAT', parameter, 'must be a scaled range stored in i8, i16, f64, f32, f16 or bf16', a.storage.name);
  const base = make();
  const n = a.size.reduce((p, s) => p * s, 1);
  let [lo, hi] = n === 0 ? [0, -1] : a.extent();
  // Several elements per word: the span starts on a word boundary.
  lo -= lo % base.elementsPerWord;
  const spanLength = Math.max(0, hi - lo + 1);
  const offset = n === 0 ? 0 : a.offset - lo;
  const layout = scaleLayout(r, offset, parameter);
  const bytesPer = (a.data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  const words = new Uint32Array(Math.max(1, base.words(spanLength)));
  new Uint8Array(words.buffer).set(new Uint8Array(a.data.buffer, a.data.byteOffset + lo * bytesPer, spanLength * bytesPer));
  const scales = a.scale.data;
  const scaleWords = new Uint32Array(scales.buffer, scales.byteOffset, scales.length * 2);
  const { runtime, reason } = await runtimeOrFallback(true);
  const span = new DeviceArray(runtime, rangeScaledPart(base, layout.indexed), spanLength, 256, { words }, reason);
  span.rangeScale = { buffer: createWordBuffer(runtime!.context, scaleWords.length, scaleWords), scalars: layout.scalars };
  return { span, offset, strides: a.strides };
}
