/** The E5M2 writer the GPU tests' user formats give their parts (emitReturn): the guide's fp8, rounded on the device. */
import type { GpuPartRegister } from '../../src/index.js';

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
