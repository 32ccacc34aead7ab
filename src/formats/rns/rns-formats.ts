/**
 * RNS as formats of the core: a {@link StorageFormat} of kind `mp` over {@link RnsArray} (seed 000's mp_array
 * layout) and an {@link ArithmeticFormat} whose registers are preallocated {@link RnsNumber} scratch objects and
 * whose templates call the operations of this folder. Every CPU kernel thereby runs in RNS with no kernel code
 * of its own. Helper names are prefixed `rns`; the per-set constructor is `rnsNew_<name>`.
 * @module
 */
import type { ArithmeticFormat, Register, StorageFormat, ValueKind } from '../common/format.js';
import { fail } from '../../core/errors.js';
import { checkModuliSet, rnsModuliSet, type RnsModuliSet } from './moduli-set.js';
import { RnsNumber, checkRnsNumber } from './rns-number-class.js';
import { RnsArray, loadElement, rnsRef } from './rns-array.js';
import { copyInto, resolveNumber } from './resolve.js';
import { storeElement } from './array-store.js';
import { rnsAbs, rnsAdd, rnsFma, rnsMul, rnsMulAdd2, rnsNeg, rnsSet, rnsSub } from './arithmetic.js';
import { fromDoubleDoubleOf, fromFiniteNumber, toDoubleDoubleOf, toNumberOf } from './convert-number.js';
import { rnsDiv, rnsSqrt, rnsToRational, setRoundedRational } from './convert-exact.js';

/**
 * z := x for numbers of any moduli sets (exact copy, or correctly rounded through BigInt). A number bound
 * lazily to an array element of the same set passes the binding on (no residue is copied).
 * @throws {@link ModprecError} `INVALID_VALUE` naming `z` or `x` when it is not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsToNumber, rnsFromRational, rnsConvert } from 'modprec';
 *
 * const narrow = rnsZero(rnsModuliSet(106)), wide = rnsZero(rnsModuliSet(424));
 * rnsFromRational(wide, 1n, 3n);
 * rnsConvert(narrow, wide);   // correctly rounded to 106 bits
 * rnsToNumber(narrow); // → 0.3333333333333333
 * ```
 * @group RNS
 */
export function rnsConvert(z: RnsNumber, x: RnsNumber): void {
  checkRnsNumber('z', z);
  checkRnsNumber('x', x);
  convertNumber(z, x);
}

/** rnsConvert without the checks: the kernels' conversions between registers. */
function convertNumber(z: RnsNumber, x: RnsNumber): void {
  const ref = x.refArray;
  if (ref !== null && ref.set === z.set) {
    if (z !== x) {
      z.sign = x.sign; z.exp = x.exp;
      z.lf = x.lf; z.le = x.le; z.uf = x.uf; z.ue = x.ue;
      z.refArray = ref; z.refIndex = x.refIndex; z.refVersion = x.refVersion;
      z.open = 0; z.runs = 0;
    }
    return;
  }
  resolveNumber(x);
  if (x.set === z.set) { copyInto(z, x, 0); return; }
  const r = rnsToRational(x);
  const neg = r.num < 0n || (r.num === 0n && x.sign === 1);
  setRoundedRational(z, neg, r.num < 0n ? -r.num : r.num, r.den, 0);
}

/** Writes a double-double export into registers: hi and lo of the rounded value. */
function rnsExportDd(x: RnsNumber, out: { hi: number; lo: number }): void {
  toDoubleDoubleOf(x, out);
}

const shared = {
  rnsAdd, rnsSub, rnsMul, rnsFma, rnsMulAdd2, rnsNeg, rnsAbs, rnsSet, rnsDiv, rnsSqrt,
  // The generated kernels' names for the unchecked forms: their operands are the kernel's own registers and elements.
  rnsFromNumber: fromFiniteNumber, rnsFromDoubleDouble: fromDoubleDoubleOf, rnsToNumber: toNumberOf, rnsExportDd,
  rnsConvert: convertNumber, rnsLoad: loadElement, rnsRef, rnsStore: storeElement,
  rnsDdOut: { hi: 0, lo: 0 },
};

function one(r: Register): string {
  if (r.kind !== 'mp') throw new Error(`modprec: rns arithmetic got a register of kind ${r.kind}`);
  return r.names[0]!;
}

function valueOf(set: RnsModuliSet, kind: ValueKind, v: unknown): RnsNumber {
  const z = new RnsNumber(set);
  if (typeof v === 'number') { fromFiniteNumber(z, v); return z; }
  switch (kind) {
    case 'number': fromFiniteNumber(z, v as number); return z;
    case 'dd': { const p = v as { hi: number; lo: number }; fromDoubleDoubleOf(z, p.hi, p.lo); return z; }
    case 'mp':
      if (!(v instanceof RnsNumber)) return fail('INVALID_VALUE', 'value', `must be an RnsNumber for ${set.name}`, v);
      convertNumber(z, v);
      return z;
  }
}

const constructors = new Map<RnsModuliSet, () => RnsNumber>();
/** The one constructor helper of a set (storage and arithmetic must share the same function value). */
function constructorOf(set: RnsModuliSet): () => RnsNumber {
  let c = constructors.get(set);
  if (!c) { c = () => new RnsNumber(set); constructors.set(set, c); }
  return c;
}

const storages = new Map<RnsModuliSet, StorageFormat<RnsArray, RnsNumber>>();
const storageSet = new WeakSet<object>();

/**
 * Whether a storage format is one of {@link rnsStorageFormat}'s (its encode of a finite value never throws: the
 * kernels copy such an output aside only for an IEEE arithmetic's non-finite results).
 */
export function isRnsStorageFormat(st: StorageFormat): boolean {
  return storageSet.has(st);
}
const arithmetics = new Map<RnsModuliSet, ArithmeticFormat<RnsNumber>>();

/**
 * The mp_array storage format of a moduli set (kind `mp`): buffers are {@link RnsArray}s of that set; decode
 * yields an exact {@link RnsNumber}, encode stores one (rounding a number of another set).
 * @param set - the moduli set
 * @example
 * ```ts
 * import { rnsModuliSet, rnsStorageFormat } from 'modprec';
 *
 * const storage = rnsStorageFormat(rnsModuliSet(212));
 * storage.kind; // → 'mp'
 * ```
 * @group RNS
 */
export function rnsStorageFormat(set: RnsModuliSet): StorageFormat<RnsArray, RnsNumber> {
  let f = storages.get(set);
  if (f) return f;
  checkModuliSet('set', set);
  const ctor = `rnsNew_${set.name}`;
  f = {
    name: set.name,
    kind: 'mp',
    significandBits: set.precision,
    unitRoundoff: set.unitRoundoff,
    isInteger: false,
    // Far larger values fit (exponents to ±2^30); this is the largest a double read can hold.
    maxValue: Number.MAX_VALUE,
    allocate: (n) => new RnsArray(set, n),
    accepts: (data): data is RnsArray => data instanceof RnsArray && data.set === set,
    capacity: (data) => data.length,
    decode: (data, k) => { const z = new RnsNumber(set); loadElement(z, data, k); return z; },
    encode: (data, k, v) => storeElement(data, k, v instanceof RnsNumber ? v : valueOf(set, typeof v === 'number' ? 'number' : 'dd', v)),
    emitRead: (data, index, dst) => `rnsRef(${one(dst)}, ${data}, ${index});`,
    emitWrite: (data, index, src) => `rnsStore(${data}, ${index}, ${one(src)});`,
    emitDeclare: (r) => `const ${one(r)} = ${ctor}();`,
    // A read binds the register to the element (rnsRef), which is exactly a register of the same set's arithmetic.
    sharesRegistersWith: (ar) => ar === rnsArithmeticFormat(set),
    helpers: { ...shared, [ctor]: constructorOf(set) },
  };
  storages.set(set, f);
  storageSet.add(f);
  return f;
}

/**
 * RNS arithmetic of a moduli set: every operation satisfies fl(x∘y) = (x∘y)(1+δ), |δ| < u = 4/√M
 * (division and square root are computed exactly in BigInt and rounded once: slow).
 * @param set - the moduli set
 * @example
 * ```ts
 * import { rnsModuliSet, rnsArithmeticFormat } from 'modprec';
 *
 * const ar = rnsArithmeticFormat(rnsModuliSet(212));
 * ar.unitRoundoff < 2 ** -211; // → true
 * ```
 * @group RNS
 */
export function rnsArithmeticFormat(set: RnsModuliSet): ArithmeticFormat<RnsNumber> {
  let f = arithmetics.get(set);
  if (f) return f;
  checkModuliSet('set', set);
  const ctor = `rnsNew_${set.name}`;
  f = {
    name: set.name,
    kind: 'mp',
    significandBits: set.precision,
    unitRoundoff: set.unitRoundoff,
    fromNumber: (x) => valueOf(set, 'number', x),
    toNumber: (v) => toNumberOf(v),
    fromKind: (kind, v) => valueOf(set, kind, v),
    toKind: (kind, v, targetBits) => {
      if (typeof v === 'number') v = valueOf(set, 'number', v);
      switch (kind) {
        case 'number': return toNumberOf(v, targetBits < 53);
        case 'dd': return toDoubleDoubleOf(v, { hi: 0, lo: 0 });
        case 'mp': return v;
      }
    },
    mul: (a, b) => { const z = new RnsNumber(set); rnsMul(z, a, b); return z; },
    div: (a, b) => { const z = new RnsNumber(set); rnsDiv(z, a, b); return z; },
    register: (base) => ({ kind: 'mp', names: [base] }),
    emitDeclare: (r) => `const ${one(r)} = ${ctor}();`,
    emitConvert: (d, s) => {
      switch (s.kind) {
        case 'number': return `rnsFromNumber(${one(d)}, ${s.names[0]});`;
        case 'dd': return `rnsFromDoubleDouble(${one(d)}, ${s.names[0]}, ${s.names[1]});`;
        case 'mp': return `rnsConvert(${one(d)}, ${s.names[0]});`;
      }
    },
    emitExport: (d, s, targetBits) => {
      switch (d.kind) {
        case 'number': return `${d.names[0]} = rnsToNumber(${one(s)}, ${targetBits < 53});`;
        case 'dd': return `rnsExportDd(${one(s)}, rnsDdOut); ${d.names[0]} = rnsDdOut.hi; ${d.names[1]} = rnsDdOut.lo;`;
        case 'mp': return `rnsConvert(${d.names[0]}, ${one(s)});`;
      }
    },
    emitSet: (d, a) => `rnsSet(${one(d)}, ${one(a)});`,
    emitAdd: (d, a, b) => `rnsAdd(${one(d)}, ${one(a)}, ${one(b)});`,
    emitSub: (d, a, b) => `rnsSub(${one(d)}, ${one(a)}, ${one(b)});`,
    emitMul: (d, a, b) => `rnsMul(${one(d)}, ${one(a)}, ${one(b)});`,
    emitFma: (d, a, b, c) => `rnsFma(${one(d)}, ${one(a)}, ${one(b)}, ${one(c)});`,
    emitMulAdd2: (d, a, x, b, y) => `rnsMulAdd2(${one(d)}, ${one(a)}, ${one(x)}, ${one(b)}, ${one(y)});`,
    emitDiv: (d, a, b) => `rnsDiv(${one(d)}, ${one(a)}, ${one(b)});`,
    emitSqrt: (d, a) => `rnsSqrt(${one(d)}, ${one(a)});`,
    emitAbs: (d, a) => `rnsAbs(${one(d)}, ${one(a)});`,
    emitNeg: (d, a) => `rnsNeg(${one(d)}, ${one(a)});`,
    emitFromNumber: (d, e) => `rnsFromNumber(${one(d)}, ${e});`,
    emitToNumber: (s) => `rnsToNumber(${one(s)})`,
    helpers: { ...shared, [ctor]: constructorOf(set) },
  };
  arithmetics.set(set, f);
  return f;
}

/**
 * The pair (storage, arithmetic) for a precision, by name `rns<precision>`.
 * @param precision - bits, in [53, 4096]
 * @throws {@link ModprecError} as `rnsModuliSet`
 * @example
 * ```ts
 * import { rnsFormatPair } from 'modprec';
 *
 * const { name, storage, arithmetic } = rnsFormatPair(300);
 * name; // → 'rns300'
 * ```
 * @group RNS
 */
export function rnsFormatPair(precision: number): { name: string; storage: StorageFormat<RnsArray, RnsNumber>; arithmetic: ArithmeticFormat<RnsNumber> } {
  const set = rnsModuliSet(precision);
  return { name: set.name, storage: rnsStorageFormat(set), arithmetic: rnsArithmeticFormat(set) };
}
