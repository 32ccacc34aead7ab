/**
 * Double-double on the device: the dd storage part (each element the four words of its binary64 pair hi, lo —
 * exactly the bytes of the CPU's interleaved dd storage) and the words of the GPU dd arithmetic's register (the
 * 112-bit format of dd-gpu-wgsl.ts: partial results and intermediate vectors), with their exact host codecs.
 * @module
 */
import type { GpuPartRegister, GpuStoragePart } from '../common/gpu-part.js';
import { checkDdRead } from '../common/gpu-facts.js';
import { bitLength } from '../../core/bit-length.js';

const XF_BIAS = 16383;


/**
 * The double nearest M·2^k (M a non-negative integer), ties to even, with binary64's subnormals and overflow.
 * @param m - the integer
 * @param k - the power of two
 * @returns the double (non-negative)
 */
export function roundBigToDouble(m: bigint, k: number): number {
  if (m === 0n) return 0;
  const top = bitLength(m) - 1 + k; // the exponent of the leading bit
  if (top > 1023) return Infinity;
  // Keep 53 bits, fewer below 2^-1022 (the last kept bit has weight ≥ 2^-1074).
  const lsb = Math.max(top - 52, -1074);
  let q: bigint;
  if (lsb <= k) {
    q = m << BigInt(k - lsb);
  } else {
    const sh = BigInt(lsb - k);
    q = m >> sh;
    const rest = m - (q << sh);
    const half = 1n << (sh - 1n);
    if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  }
  // q < 2^54 and lsb ≥ -1074: two exact scalings (2^lsb alone may underflow).
  const v = Number(q) * 2 ** Math.max(lsb, -1000) * 2 ** Math.min(0, lsb + 1000);
  return v;
}

/**
 * Words of a double in the register format (exact: 53 ≤ 112 bits, binary64's exponents inside the register's).
 * @param v - the double
 * @param out - where words 0 … 3 go
 * @param at - first index in `out`
 */
export function encodeXf(v: number, out: Uint32Array, at: number): void {
  const sign = v < 0 || Object.is(v, -0) ? 0x80000000 : 0;
  if (Number.isNaN(v)) {
    out.set([0x7fff8000, 0, 0, 0], at);
    return;
  }
  const a = Math.abs(v);
  if (a === Infinity) {
    out.set([(sign | 0x7fff0000) >>> 0, 0, 0, 0], at);
    return;
  }
  if (a === 0) {
    out.set([sign >>> 0, 0, 0, 0], at);
    return;
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const bits = view.getBigUint64(0);
  const ex = Number(bits >> 52n);
  const frac = bits & ((1n << 52n) - 1n);
  const [sig, e0] = ex === 0 ? [frac, -1074] : [frac | (1n << 52n), ex - 1075];
  // value = sig·2^e0; normalise sig to 112 bits: M = sig·2^(111 − top), exponent e = e0 + top.
  const top = bitLength(sig) - 1;
  const m = sig << BigInt(111 - top);
  const e = e0 + top;
  out[at] = (sign | ((e + XF_BIAS) << 16) | Number(m >> 96n)) >>> 0;
  out[at + 1] = Number((m >> 64n) & 0xffffffffn);
  out[at + 2] = Number((m >> 32n) & 0xffffffffn);
  out[at + 3] = Number(m & 0xffffffffn);
}

/**
 * The exact value of register words: `{ sign, m, e }` with value (−1)^sign·m·2^e (m a BigInt), or a special.
 * @param w - the words
 * @param at - first index
 * @returns the value
 */
export function decodeXfExact(w: Uint32Array, at: number): { sign: number; m: bigint; e: number } | { special: number } {
  const w0 = w[at]!;
  const sign = w0 >>> 31;
  const eb = (w0 >>> 16) & 0x7fff;
  if (eb === 0) return { sign, m: 0n, e: 0 };
  const m = (BigInt(w0 & 0xffff) << 96n) | (BigInt(w[at + 1]!) << 64n) | (BigInt(w[at + 2]!) << 32n) | BigInt(w[at + 3]!);
  if (eb === 0x7fff) return { special: m === 0n ? (sign ? -Infinity : Infinity) : NaN };
  return { sign, m, e: eb - XF_BIAS - 111 };
}

/**
 * Register words as a double-double pair (hi = the nearest double, lo = the double nearest the rest).
 * @param w - the words
 * @param at - first index
 * @returns hi and lo
 */
export function decodeXfPair(w: Uint32Array, at: number): { hi: number; lo: number } {
  const x = decodeXfExact(w, at);
  if ('special' in x) return { hi: x.special, lo: 0 };
  const s = x.sign ? -1 : 1;
  const hi = roundBigToDouble(x.m, x.e);
  if (!Number.isFinite(hi) || x.m === 0n) return { hi: s * hi, lo: 0 };
  // rest = m·2^e − hi, exactly, on the common scale 2^min(e, e_hi).
  const hb = exactBig(hi);
  const k = Math.min(x.e, hb.e);
  const rest = (x.m << BigInt(x.e - k)) - (hb.m << BigInt(hb.e - k));
  const lo = rest < 0n ? -roundBigToDouble(-rest, k) : roundBigToDouble(rest, k);
  return { hi: s * hi, lo: s * lo };
}

/** A finite non-negative double as m·2^e (m a BigInt). */
function exactBig(v: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const ex = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  return ex === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: ex - 1075 };
}

/** A register as the expression of its four words (a `vec4<f32>` of raw bits). */
function xfOf(r: GpuPartRegister): string {
  switch (r.kind) {
    case 'xf': return r.name;
    case 'f32': return `mpXfOfWord(${r.name})`;
    case 'ff': return `mpXfOfPair(${r.name})`;
    case 'f64': return `mpXfOfF64Words(${r.name})`;
    case 'dd': return `mpXfOfDdWords(${r.name})`;
    default: throw new Error(`internal: the GPU dd arithmetic cannot read a register of kind ${r.kind}`);
  }
}

/**
 * The expression of register `r` converted to the GPU dd arithmetic's register (exact from f32, ff, f64 words;
 * from dd words see dd-gpu-wgsl.ts).
 * @param r - a register
 * @returns a `vec4<f32>` expression
 */
export const asXf = xfOf;

/**
 * The words of the GPU dd arithmetic's register on the device (partial results, TRSV's inverses and residuals).
 * @group Double-double
 */
export const xfGpuWords: GpuStoragePart = {
  name: 'dd-register',
  elementsPerWord: 1,
  wordsPerElement: 4,
  significandBits: 112,
  unitRoundoff: 2 ** -112,
  scaled: false,
  writable: true,
  words: (length) => 4 * length,
  encode(values) {
    const words = new Uint32Array(Math.max(4, 4 * values.length));
    for (let k = 0; k < values.length; k++) encodeXf(values[k]!, words, 4 * k);
    return { words };
  },
  decodePair: (words) => {
    const p = decodeXfPair(words, 0);
    return [p.hi, p.lo];
  },
  decode(encoded, length) {
    const out = new Float64Array(length);
    for (let k = 0; k < length; k++) {
      const p = decodeXfPair(encoded.words, 4 * k);
      out[k] = p.hi;
    }
    return out;
  },
  emitRead: (array, index, dst) => ({
    code: `const ${dst}k = (${index}) * 4; const ${dst} = [${array}[${dst}k], ${array}[${dst}k + 1], ${array}[${dst}k + 2], ${array}[${dst}k + 3]];`,
    register: { kind: 'xf', name: dst },
  }),
  readArgs: () => [],
  emitReturn: (values) => (values[0] ? `return ${xfOf(values[0])};` : 'return [0.0, 0.0, 0.0, 0.0];'),
};

/**
 * Reads element `index` of a dd pair operand `array` (interleaved dd or dd-split) into a `dd` register of its four
 * words: hi's two words from `array`, lo's two from `<array>DdLo`, at word `index·<array>DdS` and that plus
 * `<array>DdL`. The dispatch binds them (src/backends/webgpu/program.ts, dd-split-bindings.ts): interleaved dd as
 * stride 4, lo at 2, both arguments on its binding; dd-split as stride 2, lo at 0, `array` on the hi block and
 * `DdLo` on the lo block. One program source serves both layouts (one compile), and reads the same four words.
 * @param array - the array argument
 * @param index - integer expression of the element
 * @param dst - the register's name
 * @param arithmetic - the GPU arithmetic (the dd arithmetic only)
 * @returns the code and the register
 */
export function ddPairRead(array: string, index: string, dst: string, arithmetic: Parameters<GpuStoragePart['emitRead']>[3]): { code: string; register: GpuPartRegister } {
  checkDdRead(arithmetic);
  return {
    code: `const ${dst}k = (${index}) * ${array}DdS; const ${dst}kLo = ${dst}k + ${array}DdL; const ${dst} = [${array}[${dst}k], ${array}[${dst}k + 1], ${array}DdLo[${dst}kLo], ${array}DdLo[${dst}kLo + 1]];`,
    register: { kind: 'dd', name: dst },
  };
}

/**
 * The arguments of {@link ddPairRead}: the lo words' array and the two integers that place them.
 * @param array - the array argument
 * @returns the declarations
 */
export function ddPairReadArgs(array: string): readonly (readonly [string, 'Array' | 'Integer'])[] {
  return [[`${array}DdLo`, 'Array'], [`${array}DdS`, 'Integer'], [`${array}DdL`, 'Integer']];
}

/**
 * Double-double storage on the device: element k is the four words of its pair (hi's low and high word, then lo's),
 * the bytes of the CPU's interleaved `dd` storage. Read into the GPU dd arithmetic (others are refused: they would
 * drop lo); written as the pair nearest the register's value.
 * @group Double-double
 */
export const ddGpuPart: GpuStoragePart = {
  name: 'dd',
  elementsPerWord: 1,
  wordsPerElement: 4,
  significandBits: 106,
  unitRoundoff: 2 ** -106,
  scaled: false,
  writable: true,
  // Strided dd views: the gather and scatter passes move a pair's four words as raw bits.
  bitCopy: true,
  words: (length) => 4 * length,
  encode(values) {
    // A number is the pair (value, 0): exact.
    const doubles = new Float64Array(Math.max(2, 2 * values.length));
    for (let k = 0; k < values.length; k++) doubles[2 * k] = values[k]!;
    return { words: new Uint32Array(doubles.buffer) };
  },
  // The pair's own two doubles (copied: the words may sit at an offset a Float64Array cannot view).
  decodePair: (words) => {
    const d = new Float64Array(Uint32Array.from(words.subarray(0, 4)).buffer);
    return [d[0]!, d[1]!];
  },
  decode(encoded, length) {
    const d = new Float64Array(encoded.words.buffer, encoded.words.byteOffset, 2 * length);
    const out = new Float64Array(length);
    for (let k = 0; k < length; k++) out[k] = d[2 * k + 1] === 0 ? d[2 * k]! : d[2 * k]! + d[2 * k + 1]!;
    return out;
  },
  emitRead: ddPairRead,
  readArgs: ddPairReadArgs,
  emitReturn: (values) => {
    const r = values[0];
    if (!r) return 'return [0.0, 0.0, 0.0, 0.0];';
    if (r.kind === 'dd') return `return ${r.name};`;
    return `return mpXfToDdWords(${xfOf(r)});`;
  },
};
