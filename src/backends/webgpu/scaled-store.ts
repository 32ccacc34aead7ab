/**
 * The CPU's scaled store of an integer range (i8, i16 with the CPU's scale model), on the device: each element of the
 * output view gets the exact quotient value / scale rounded ONCE to the nearest integer, ties to even, saturated to the
 * storage's range ([−128, 127], [−32768, 32767]) and NaN → 0 — `nearestIntegerOfQuotient` followed by the storage's
 * encode on the CPU. The value is the arithmetic's f32 word or float-float pair as the kernel left it; the rounding is
 * `mpQuantize` (format-writers.ts, with its proof), whose exactness needs the scale to be a binary32 (at least 2^-95 in magnitude; a negative one negates the value):
 * {@link deviceScaledStore} takes a range only when every one of its scales is (fp64 scales that are not are stored
 * on the host, by the same rule, with the same bits).
 *
 * One pass, a thread per word of the range's storage span: a lane of the word that is an element of the view gets its
 * integer, every other lane keeps its bits (elements of the span outside a strided view, neighbours sharing a word).
 *
 * @module
 */
import { bindingLimit, type DeviceArray } from './device-array.js';
import { kernelSource, memo } from './kernel-common.js';
import { getProgram, submitPasses, type ArgType } from './program.js';
import { toDeviceScaledSpan, type ScaledRangeLike } from './range-scale.js';
import { createWordBuffer, readWords } from './runtime.js';
import { ascendingWalk, viewIndex } from './view-output.js';

/** Bits of the integer storages the device stores into. */
const BITS: Readonly<Record<string, 8 | 16>> = { i8: 8, i16: 16 };

/** Thread per span word: the word with each view lane replaced by its rounded integer. */
function storeSource(bits: 8 | 16, components: number): { source: string; args: (readonly [string, ArgType])[] } {
  const args: (readonly [string, ArgType])[] = [['D', 'Array'], ['S', 'Array'], ['Rs', 'Array'],
    ...(['So', 'Sb', 'Sm', 'Sn', 'Qm', 'Qn', 'first', 'step', 'len', 'reverse', 'top'] as const).map((n) => [n, 'Integer'] as const), ['qmax', 'Float']];
  const lanes = 32 / bits;
  const mask = 2 ** bits - 1;
  const body = ['const w = this.thread.x;', 'const ow = mpBits(S[w]);', 'let word = mpI32(0);'];
  for (let l = 0; l < lanes; l++) {
    body.push(`const e${l} = w * ${lanes} + ${l};`, ...viewIndex(`e${l}`, `i${l}`), `let b${l} = (ow >>> ${l * bits}) & ${mask};`);
    // The element's scale, found from its span index as the reads find it (range-scale.ts).
    const [hi, lo] = components === 2 ? [`D[2 * i${l}]`, `D[2 * i${l} + 1]`] : [`D[i${l}]`, '0.0'];
    body.push(`if (i${l} >= 0) {`,
      `const d${l} = e${l} - Sb; const a${l} = mpIdiv(d${l}, Sm); const q${l} = So + a${l} * Qm + mpIdiv(d${l} - a${l} * Sm, Sn) * Qn;`,
      `const s${l} = mpF64(mpBits(Rs[2 * q${l} + 1]), mpBits(Rs[2 * q${l}]));`,
      // A negative scale: v/s = (−v)/|s| (negation is exact, and rounding to nearest even is symmetric).
      `let sc${l} = s${l}[0]; let vh${l} = ${hi}; let vl${l} = ${lo};`,
      `if (sc${l} < 0.0) { sc${l} = -sc${l}; vh${l} = -vh${l}; vl${l} = -vl${l}; }`,
      `let n${l} = mpQuantize([vh${l}, vl${l}], sc${l}, qmax);`,
      `if (n${l} > top) { n${l} = top; }`,
      `b${l} = n${l} & ${mask};`,
      '}',
      `word = word | (b${l} << ${l * bits});`);
  }
  body.push('return mpFloat(word);');
  return { source: kernelSource(args, body), args };
}

/**
 * Whether every scale of `r` is a binary32 of at least 2^-95 in magnitude (what `mpQuantize` decides exactly, also on an adapter
 * that flushes binary32 subnormals: see its proof) and its storage an integer the device stores into.
 * @param r - a scaled 1-D range
 * @returns true when {@link deviceScaledStore} takes it
 */
export function storesOnDevice(r: ScaledRangeLike): boolean {
  const a = r.accessor;
  if (!(a.storage.name in BITS) || !a.scale || a.dimensionality !== 1) return false;
  for (const s of a.scale.data) if (!(Math.abs(s) >= 2 ** -95 && Math.abs(s) <= 3.4028234663852886e38 && Math.fround(s) === s)) return false;
  return true;
}

/**
 * Whether the store pass binds `r`'s span, its scales and the values `d` each within one storage binding (it binds them whole; a
 * larger output takes the host's store, which rounds the same).
 * @param r - a scaled 1-D range
 * @param d - the values on the device
 * @returns true when both fit
 */
export function fitsOneBinding(r: ScaledRangeLike, d: DeviceArray): boolean {
  const limit = bindingLimit(d.runtime!);
  const bits = BITS[r.accessor.storage.name]!;
  const n = r.accessor.size[0]!;
  const [lo, hi] = n === 0 ? [0, -1] : r.accessor.extent();
  const spanWords = Math.ceil((hi - (lo - (lo % (32 / bits))) + 1) * bits / 32);
  return spanWords * 4 <= limit && d.words * 4 <= limit && r.accessor.scale!.data.length * 8 <= limit;
}

let stores = 0;

/**
 * How many scaled stores ran on the device so far (tests check that a case took the device path).
 * @returns the count
 */
export function deviceScaledStoreCount(): number {
  return stores;
}

/**
 * Stores the arithmetic's values `d` (one f32 word or ff pair per element, element i of the range) into the scaled
 * integer range `r` on the device, as the CPU's scaled store: the range's storage span goes up, one pass rounds the
 * view's elements into it (every other element keeps its bits), and the span's bytes come back into the range's typed
 * array in one copy.
 * @param r - a 1-D range stored in i8 or i16 with its own scales ({@link storesOnDevice})
 * @param d - the values, on the device (`r.length` elements of the arithmetic's words)
 * @example
 * ```ts
 * if (storesOnDevice(r)) await deviceScaledStore(r, d);
 * ```
 */
export async function deviceScaledStore(r: ScaledRangeLike, d: DeviceArray): Promise<void> {
  const a = r.accessor;
  const bits = BITS[a.storage.name]!;
  const n = a.size[0]!;
  if (n === 0) return;
  const { span, offset } = await toDeviceScaledSpan(r, 'out');
  stores++;
  try {
    const runtime = span.runtime!;
    const components = d.format.wordsPerElement;
    const spec = memo(`scaledStore|${bits}|${components}`, () => storeSource(bits, components));
    const program = await getProgram(runtime.context, { source: spec.source, args: spec.args, components: 1 });
    const rs = span.rangeScale!;
    const layout = { Sb: 0, Sm: 1, Sn: 1, Qm: 0, Qn: 0, ...rs.scalars };
    const walk = ascendingWalk({ offset, stride: a.strides[0]!, length: n });
    const top = 2 ** (bits - 1) - 1;
    const out = createWordBuffer(runtime.context, span.words);
    try {
      submitPasses(runtime.context, [{ pass: {
        program, arrays: { D: { buffer: d.buffer! }, S: { buffer: span.buffer! }, Rs: { buffer: rs.buffer } },
        scalars: { ...layout, ...walk, len: n, top, qmax: top + 1 }, output: { buffer: out }, threads: span.words,
      } }]);
      const words = await readWords(runtime.context, out, span.words);
      // The span started on a word at element lo of the range's typed array (toDeviceScaledSpan).
      const [lo] = a.extent();
      const first = lo - (lo % (32 / bits));
      const bytes = span.spanLength * (bits / 8);
      new Uint8Array(a.data.buffer, a.data.byteOffset + first * (bits / 8), bytes).set(new Uint8Array(words.buffer, words.byteOffset, bytes));
    } finally {
      out.destroy();
    }
  } finally {
    span.destroy();
  }
}
