/**
 * Pieces the built-in GPU storage parts share: registers of a four-element vector read, the vector read of
 * two-word elements (f64, ff), and how a register is narrowed or collapsed to one binary32 value on write.
 * @module
 */
import type { GpuPartRegister, GpuReadTarget, GpuScalarPart, GpuVectorRead } from './gpu-part.js';

/** Element j of four read as `prefix` + j from vector registers (helper of the vector reads). */
export function fourRegisters(prefix: string, kind: GpuPartRegister['kind']): GpuPartRegister[] {
  return [0, 1, 2, 3].map((j) => ({ kind, name: `${prefix}${j}` }));
}

/**
 * The vector read of four elements of two words each (f64, ff) into float-float registers: eight words, two
 * 16-byte loads. `element(q, o)` is the expression of one element from words o and o + 1 of the vec4 `q`.
 * With `headOnlyInF32`, an arithmetic that computes from binary32 registers only takes the head of each pair (see
 * f64-gpu-words.ts).
 */
export function twoWordQuadRead(element: (q: string, o: number) => string, headOnlyInF32 = false, rawKind?: GpuPartRegister['kind']): GpuVectorRead {
  return {
    suffix: 'Quad',
    emit(vector, index, prefix, arithmetic) {
      const v = `${prefix}v`;
      if (rawKind !== undefined && computesFrom(arithmetic, rawKind)) {
        // An arithmetic that computes from the raw words (the GPU dd arithmetic from f64's) takes them as they are.
        const lines = [`const ${v}q = (${index}) >> 1; const ${v}0 = mpQuad(${vector}[${v}q]); const ${v}1 = mpQuad(${vector}[${v}q + 1]);`];
        for (let j = 0; j < 4; j++) lines.push(`const ${prefix}${j} = [${v}${j >> 1}[${2 * (j & 1)}], ${v}${j >> 1}[${2 * (j & 1) + 1}]];`);
        return { code: lines.join(' '), registers: fourRegisters(prefix, rawKind) };
      }
      const head = headOnlyInF32 && !computesFrom(arithmetic, 'ff');
      const lines = [`const ${v}q = (${index}) >> 1; const ${v}0 = mpQuad(${vector}[${v}q]); const ${v}1 = mpQuad(${vector}[${v}q + 1]);`];
      for (let j = 0; j < 4; j++) {
        const e = element(`${v}${j >> 1}`, 2 * (j & 1));
        lines.push(head ? `const ${prefix}${j}p = ${e}; const ${prefix}${j} = ${prefix}${j}p[0];` : `const ${prefix}${j} = ${e};`);
      }
      return { code: lines.join(' '), registers: fourRegisters(prefix, head ? 'f32' : 'ff') };
    },
  };
}

/** Bits (an integer expression) of register `r` rounded for a later ≤ 11-bit rounding (round to odd). */
export function bitsForNarrowing(r: GpuPartRegister): string {
  if (r.kind === 'xf') return `mpXfOddBits(${r.name})`;
  return r.kind === 'ff' ? `mpRoundOdd(${r.name}[0], ${r.name}[1])` : `mpBits(${r.name})`;
}

/** Register `r` as one binary32 expression. */
export function single(r: GpuPartRegister): string {
  // The GPU dd arithmetic's register (kind xf) rounds once to binary32.
  if (r.kind === 'xf') return `mpXfToWord(${r.name})`;
  return r.kind === 'ff' ? `(${r.name}[0] + ${r.name}[1])` : r.name;
}

/**
 * A register as a float-float pair expression (binary32 registers get a zero tail).
 * @param r - the register
 * @returns `name` for a pair, `[name, 0.0]` for a word
 */
export function asPair(r: GpuPartRegister): string {
  if (r.kind === 'xf') return `mpXfToPair(${r.name})`;
  return r.kind === 'ff' ? r.name : `[${r.name}, 0.0]`;
}

/**
 * Whether an arithmetic computes from registers of `kind` (storage reads hand it that kind rather than rounding).
 * @param arithmetic - the arithmetic a read feeds
 * @param kind - a register kind
 * @returns whether `kind` is among its {@link GpuReadTarget.readKinds}
 */
export function computesFrom(arithmetic: GpuReadTarget, kind: GpuPartRegister['kind']): boolean {
  return arithmetic.readKinds.includes(kind);
}

/** Register `r`'s head as a binary32 expression (a float-float pair's hi; a binary32 register itself). */
export function headOf(r: GpuPartRegister): string {
  return r.kind === 'ff' ? `${r.name}[0]` : r.name;
}

/**
 * The scalar uniforms of the binary32-based arithmetics (f32, ff): `${prefix}Hi`, `${prefix}Lo`, the double as a
 * float-float pair; `declare` takes the pair (`asPair`) or only its head. For float-float the pair is the one
 * `formats.ff` reads on the CPU (ffFromNumberInto): a double below 2^-126 is a signed zero there (float-float holds
 * no binary32 subnormals, which WGSL lets an adapter flush), so α = 1e-40 times ∞ is NaN on both backends (the GPU
 * kept the subnormal head and gave ∞). Binary32 arithmetic keeps it, as `Math.fround` does.
 * @param asPair - whether the arithmetic's registers are pairs
 * @returns the scalar part
 */
export function floatPairScalar(asPair: boolean): GpuScalarPart {
  return {
    args: (prefix) => [[`${prefix}Hi`, 'Float'], [`${prefix}Lo`, 'Float']],
    values: (prefix, value) => {
      if (asPair && Math.abs(value) < 2 ** -126) return { [`${prefix}Hi`]: value * 0, [`${prefix}Lo`]: value * 0 };
      const hi = Math.fround(value);
      return { [`${prefix}Hi`]: hi, [`${prefix}Lo`]: Number.isFinite(hi) ? Math.fround(value - hi) : 0 };
    },
    declare: (dst, prefix) => (asPair ? `const ${dst} = [${prefix}Hi, ${prefix}Lo];` : `const ${dst} = ${prefix}Hi;`),
  };
}

/**
 * Declares `dst` = |r| as a register of r's kind (binary32: `Math.abs`; float-float: both words negated when the
 * head is negative).
 */
export function absOf(dst: string, r: GpuPartRegister): { code: string; register: GpuPartRegister } {
  if (r.kind === 'ff') return { code: `let ${dst} = ${r.name}; if (${r.name}[0] < 0.0) { ${dst} = [-${r.name}[0], -${r.name}[1]]; }`, register: { kind: 'ff', name: dst } };
  return { code: `const ${dst} = Math.abs(${r.name});`, register: { kind: 'f32', name: dst } };
}
