/**
 * fp64 arithmetic: every operation is one IEEE binary64 operation of JavaScript.
 * @module
 */
import type { ArithmeticFormat, Register, ValueKind, MpValueLike } from '../common/format.js';
import { fail } from '../../core/errors.js';

const r = (reg: Register, i = 0): string => reg.names[i]!;

/** Expression: the value of register `src` (any kind) rounded to the nearest double. */
export function numberExpressionOf(src: Register): string {
  switch (src.kind) {
    case 'number': return r(src);
    // A normalised pair has hi = fl(hi + lo); the sum also normalises a pair that is not.
    case 'dd': return `(${r(src, 0)} + ${r(src, 1)})`;
    case 'mp': return `${r(src)}.toNumber()`;
  }
}

/** Statements: store the double expression `expr` into register `dst` of any kind, exactly. */
export function storeNumberInto(dst: Register, expr: string): string {
  switch (dst.kind) {
    case 'number': return `${r(dst)} = ${expr};`;
    case 'dd': return `${r(dst, 0)} = ${expr}; ${r(dst, 1)} = 0;`;
    case 'mp': return `${r(dst)}.setNumber(${expr});`;
  }
}

/** Scalar: an exact value of `kind` rounded to the nearest double. */
export function numberOfKind(kind: ValueKind, v: unknown): number {
  switch (kind) {
    case 'number': return v as number;
    case 'dd': { const p = v as { hi: number; lo: number }; return p.hi + p.lo; }
    case 'mp': return (v as MpValueLike).toNumber();
  }
}

/** Scalar: a double as a value of `kind`. */
export function kindOfNumber(kind: ValueKind, x: number): unknown {
  switch (kind) {
    case 'number': return x;
    case 'dd': return { hi: x, lo: x === 0 ? x : 0 };   // a zero as (x, x): hi + lo keeps −0
    case 'mp': return fail('INVALID_FORMAT', 'storage', 'of kind mp must be written through its own encode()', kind);
  }
}

/**
 * IEEE binary64 arithmetic (u = 2^-53).
 * @group Formats
 */
export const f64Arithmetic: ArithmeticFormat<number> = {
  name: 'f64',
  kind: 'number',
  significandBits: 53,
  unitRoundoff: 2 ** -53,
  fromNumber: (x) => x,
  toNumber: (v) => v,
  fromKind: numberOfKind,
  toKind: (kind, v) => kindOfNumber(kind, v),
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  register: (base) => ({ kind: 'number', names: [base] }),
  emitDeclare: (d) => `let ${r(d)} = 0;`,
  emitConvert: (d, s) => `${r(d)} = ${numberExpressionOf(s)};`,
  // A double is exact in every kind it is exported to; a narrower storage rounds it once.
  emitExport: (d, s) => storeNumberInto(d, r(s)),
  emitSet: (d, a) => `${r(d)} = ${r(a)};`,
  emitAdd: (d, a, b) => `${r(d)} = ${r(a)} + ${r(b)};`,
  emitSub: (d, a, b) => `${r(d)} = ${r(a)} - ${r(b)};`,
  emitMul: (d, a, b) => `${r(d)} = ${r(a)} * ${r(b)};`,
  emitFma: (d, a, b, c) => `${r(d)} = ${r(a)} * ${r(b)} + ${r(c)};`,
  emitDiv: (d, a, b) => `${r(d)} = ${r(a)} / ${r(b)};`,
  emitSqrt: (d, a) => `${r(d)} = Math.sqrt(${r(a)});`,
  emitAbs: (d, a) => `${r(d)} = Math.abs(${r(a)});`,
  emitNeg: (d, a) => `${r(d)} = -${r(a)};`,
  emitFromNumber: (d, e) => `${r(d)} = ${e};`,
  emitToNumber: (s) => r(s),
  helpers: {},
};
