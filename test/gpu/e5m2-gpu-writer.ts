/** The E5M2 writer the GPU tests' user formats give their parts (emitReturn): the guide's fp8, rounded on the device. */
import { createBinaryRounder, f16BitsFromNumber, numberFromF16Bits, type GpuPartRegister, type GpuStoragePart } from '../../src/index.js';

/**
 * The byte of E5M2 nearest the value of register `r`, as gpu.js source declaring `${v}` (ties to even, ±∞ beyond
 * 57344 + half a step, subnormals down to 2^-16, NaN as 0x7E with its sign, as the CPU's f16 conversion keeps it): from the binary32 bits of the value — rounded to
 * odd first when it is a float-float pair (mpRoundOdd), so this second rounding to 3 bits is still correct.
 */
export function e5m2Byte(r: GpuPartRegister, v: string): string {
  const bits = r.kind === 'ff' ? `mpRoundOdd(${r.name}[0], ${r.name}[1])` : `mpBits(${r.name})`;
  return `const ${v}b = ${bits}; const ${v}a = ${v}b & 2147483647; const ${v}e = (${v}a >> 23) - 127; let ${v}h = 0;
if (${v}a > 2139095040) { ${v}h = 126 | ((${v}b >>> 24) & 128); } else {
  if (${v}e > 15) { ${v}h = 124; } else {
    if (${v}e >= -14) {
      const ${v}m = ${v}a & 8388607; let ${v}t = ((${v}e + 15) << 2) | (${v}m >> 21); const ${v}r = ${v}m & 2097151;
      if (${v}r > 1048576) { ${v}t = ${v}t + 1; }
      if (${v}r === 1048576) { ${v}t = ${v}t + (${v}t & 1); }
      ${v}h = ${v}t | ((${v}b >>> 24) & 128);
    } else {
      if (${v}e >= -17) {
        const ${v}m = (${v}a & 8388607) | 8388608; const ${v}s = 7 - ${v}e; let ${v}t = ${v}m >> ${v}s; const ${v}r = ${v}m & ((1 << ${v}s) - 1); const ${v}f = 1 << (${v}s - 1);
        if (${v}r > ${v}f) { ${v}t = ${v}t + 1; }
        if (${v}r === ${v}f) { ${v}t = ${v}t + (${v}t & 1); }
        ${v}h = ${v}t | ((${v}b >>> 24) & 128);
      } else { ${v}h = (${v}b >>> 24) & 128; }
    }
  }
  if (${v}h === 124) { ${v}h = 124 | ((${v}b >>> 24) & 128); }
}`;
}

const roundE5M2 = createBinaryRounder({ significandBits: 3, minExponent: -14, maxExponent: 15 });
/** The E5M2 byte of x (the CPU's rounding: the guide's encoder). */
export const encodeE5M2 = (x: number): number => f16BitsFromNumber(roundE5M2(x)) >>> 8;
/** The value of an E5M2 byte. */
export const decodeE5M2 = (bits: number): number => numberFromF16Bits(bits << 8);

/**
 * The guide's E5M2 GPU part under `name`, writable, its words the bytes of the CPU's Uint8Array (element 4w + j in
 * byte j of word w: `hostBytes`), read through mpHalfPair and written by {@link e5m2Byte}.
 * @param name - the format's name
 * @returns the part
 */
export function e5m2LanePart(name: string): GpuStoragePart {
  return {
    name, elementsPerWord: 4, wordsPerElement: 1, significandBits: 3, unitRoundoff: 2 ** -3, scaled: false, writable: true, hostBytes: true,
    words: (n) => Math.ceil(n / 4),
    encode(values) {
      const words = new Uint32Array(Math.max(1, Math.ceil(values.length / 4)));
      for (let k = 0; k < values.length; k++) words[k >> 2]! |= encodeE5M2(values[k]!) << ((k & 3) << 3);
      return { words };
    },
    decode: (e, length) => Float64Array.from({ length }, (_, k) => decodeE5M2((e.words[k >> 2]! >>> ((k & 3) << 3)) & 255)),
    emitRead: (array, index, dst) => ({
      code: `const ${dst}k = ${index}; const ${dst}b = (mpBits(${array}[${dst}k >> 2]) >>> ((${dst}k & 3) << 3)) & 255; const ${dst}h = mpHalfPair(${dst}b << 8); const ${dst} = ${dst}h[0];`,
      register: { kind: 'f32', name: dst },
    }),
    readArgs: () => [],
    emitReturn(values) {
      const parts = values.map((r, e) => (r ? e5m2Byte(r, `q${e}`) : `const q${e}h = 0;`));
      return `${parts.join('\n')}\nreturn mpFloat(q0h | (q1h << 8) | (q2h << 16) | (q3h << 24));`;
    },
  };
}
