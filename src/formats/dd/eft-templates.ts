/**
 * Error-free transformations as source templates in a NUMBER arithmetic (fp64, or fp32 emulated with
 * Math.fround): the building blocks of the compensated accumulations (Kahan–Babuška/Neumaier, Dot2) and of
 * double-double accumulation. Each rounded operation goes through the arithmetic's own templates, so in fp32
 * the transformations are error-free in binary32.
 * @module
 */
import type { ArithmeticFormat, Register } from '../common/format.js';
import { fail } from '../../core/errors.js';
import { twoProdErrorSource } from './dd-templates.js';

const num = (name: string): Register => ({ kind: 'number', names: [name] });

/**
 * Checks that `ar` is a number arithmetic whose products have an error-free transformation here:
 * 53 bits (Dekker's TwoProd) or at most 26 bits (the product is exact in binary64).
 * @throws {@link ModprecError} `INVALID_OPTION` naming the accumulation otherwise
 */
export function checkCompensable(ar: ArithmeticFormat, accumulation: string): void {
  if (ar.kind !== 'number' || !(ar.significandBits === 53 || ar.significandBits <= 26)) {
    fail('INVALID_OPTION', 'options.accumulation', `'${accumulation}' needs fp64 or fp32 arithmetic (double-double arithmetic already accumulates in DD: use 'recursive')`, ar.name);
  }
}

/**
 * Statements: `s` := fl(a + b), `e` := the exact error (Knuth's TwoSum, 6 operations), all in `ar`.
 * `s`, `e` must be declared names distinct from `a`, `b`.
 */
export function twoSumSource(ar: ArithmeticFormat, s: string, e: string, a: string, b: string): string {
  const [S, E, A, B] = [num(s), num(e), num(a), num(b)];
  const z = num('ef$z');
  const t = num('ef$t');
  return `{ let ef$z = 0, ef$t = 0; ${ar.emitAdd(S, A, B)} ${ar.emitSub(z, S, A)} ${ar.emitSub(t, S, z)} ${ar.emitSub(t, A, t)} ${ar.emitSub(z, B, z)} ${ar.emitAdd(E, t, z)} }`;
}

/**
 * Statements: `p` := fl(a·b) in `ar`, `e` := a·b − p exactly (declared names). fp64: Dekker's TwoProd with
 * Veltkamp splitting (scaled beyond 2^996); ≤ 26-bit arithmetics: a·b is exact in binary64, so e = a·b − p.
 */
export function twoProdSource(ar: ArithmeticFormat, p: string, e: string, a: string, b: string): string {
  if (ar.significandBits === 53) {
    return `${p} = ${a} * ${b}; { ${twoProdErrorSource('ef$e', a, b, p)} ${e} = ef$e; }`;
  }
  return `${ar.emitMul(num(p), num(a), num(b))} ${e} = ${a} * ${b} - ${p};`;
}
