/**
 * How an accessor appears in generated code: its runtime parameters (buffer, offset, strides, scales) and the
 * statements that read an element into an arithmetic register or write one back, fusing the storage codec,
 * the scale, and the storage↔arithmetic conversion.
 * @module
 */
import type { Accessor, AccessorSignature } from '../../../accessors/accessor.js';
import { declareStorageRegister, numberRegister, registerOfKind, type ArithmeticFormat, type Register } from '../../formats/common/format.js';
import { nearestIntegerOfMpQuotient, nearestIntegerOfQuotient, nearestIntegerSource } from '../../formats/convert/scaled-integer.js';
import { emitCaughtWrite, emitFiniteCheck, storeCatches, storeChecksFinite, storeNotFinite, storeThrew } from './store-failure.js';

/** An accessor as a kernel operand named `name` in the generated source. */
export class Operand {
  /** Variable prefix in generated code. */
  readonly name: string;
  /** The accessor this operand was made from (its signature shapes the code). */
  readonly accessor: Accessor<any, any>;
  private readonly tmp: Register;

  constructor(name: string, accessor: Accessor<any, any>) {
    this.name = name;
    this.accessor = accessor;
    this.tmp = registerOfKind(accessor.storage.kind, `${name}_t`);
  }

  /** The part of the cache key that depends on this operand. */
  signature(): AccessorSignature {
    return this.accessor.signature();
  }

  /** Name of the buffer parameter. */
  get data(): string { return `${this.name}_d`; }
  /** Name of the offset parameter. */
  get offset(): string { return `${this.name}_o`; }
  /** Name of the stride parameter of dimension d. */
  stride(d: number): string { return `${this.name}_s${d}`; }
  /** Name of the scale-offset parameter. */
  get scaleOffset(): string { return `${this.name}_so`; }
  /** Name of the scale-stride parameter of dimension d. */
  scaleStride(d: number): string { return `${this.name}_ss${d}`; }
  /** Name of the scale buffer parameter. */
  get scaleData(): string { return `${this.name}_sd`; }

  /** Parameter names, in the order {@link Operand.args} supplies them. */
  params(): string[] {
    const a = this.accessor;
    const p = [this.data, this.offset];
    for (let d = 0; d < a.dimensionality; d++) p.push(this.stride(d));
    if (a.scale) {
      p.push(this.scaleData, this.scaleOffset);
      for (let d = 0; d < a.dimensionality; d++) p.push(this.scaleStride(d));
    }
    return p;
  }

  /** Runtime arguments of an accessor with this operand's signature. */
  static args(a: Accessor<any, any>): unknown[] {
    const v: unknown[] = [a.data, a.offset, ...(a.strides as readonly number[])];
    if (a.scale) v.push(a.scale.data, a.scale.offset, ...a.scale.strides);
    return v;
  }

  /** Linear storage position of the index expressions. */
  position(index: readonly string[]): string {
    return [this.offset, ...index.map((e, d) => `(${e}) * ${this.stride(d)}`)].join(' + ');
  }

  /** Linear scale position of the index expressions (scaled accessors). */
  scalePosition(index: readonly string[]): string {
    const s = this.accessor.scale!;
    return [this.scaleOffset, ...index.map((e, d) => (s.mask[d] ? `(${e}) * ${this.scaleStride(d)}` : '')).filter(Boolean)].join(' + ');
  }

  /** Helpers of this operand's storage format. */
  helpers(): Readonly<Record<string, unknown>> {
    const st = this.accessor.storage;
    const refusals = st.kind === 'mp' || storeCatches(st) ? { storeNotFinite, storeThrew } : {};
    if (this.accessor.scale && st.isInteger) return { ...st.helpers, nearestIntegerOfQuotient, nearestIntegerOfMpQuotient, ...refusals };
    return { ...st.helpers, ...refusals };
  }

  /** Declarations of the operand's temporaries, once per kernel. */
  emitDeclare(ar: ArithmeticFormat): string {
    const scaleReg = this.accessor.scale ? ' ' + ar.emitDeclare(ar.register(`${this.name}_sc`)) : '';
    // The storage temporary is only used when a read or a write has to convert between kinds or precisions.
    const st = this.accessor.storage;
    const needsTmp = !this.direct(ar) || !this.writesDirect(ar);
    return (needsTmp ? declareStorageRegister(st, this.tmp) : '') + scaleReg;
  }

  /** Whether a read can go straight into a register of `ar` (same kind, no rounding needed). */
  private direct(ar: ArithmeticFormat): boolean {
    const st = this.accessor.storage;
    return (st.kind === 'number' && ar.kind === 'number' && st.significandBits <= ar.significandBits) || this.shared(ar);
  }

  /** Whether a write can store a register of `ar` as is (the storage's own write rounds a number). */
  private writesDirect(ar: ArithmeticFormat): boolean {
    return (this.accessor.storage.kind === 'number' && ar.kind === 'number') || this.shared(ar);
  }

  /** Whether storage and `ar` share their registers (reads and writes need no conversion either way). */
  private shared(ar: ArithmeticFormat): boolean {
    return this.accessor.storage.sharesRegistersWith?.(ar) === true;
  }

  /**
   * The register a load of this operand fills, named after `base`: a register of `ar`, or, when the read is an
   * exact double (number storage, no scale) and `ar` takes number operands
   * ({@link ArithmeticFormat.takesNumberOperands}), a register of kind `number`, so that `ar`'s templates see the
   * known-zero low part (and skip the conversion). Kernels must only READ such a register (pass it as a source
   * operand): the arithmetic refuses it as a destination. Declare it with {@link declareRegister}.
   */
  valueRegister(ar: ArithmeticFormat, base: string): Register {
    const st = this.accessor.storage;
    const exact = ar.takesNumberOperands === true && ar.kind !== 'number' && st.kind === 'number' && !this.accessor.scale;
    return exact ? numberRegister(base) : ar.register(base);
  }

  /**
   * Statements: `dst` := the element at storage position `pos`, scaled and converted; `dst` is a register of
   * `ar` or one from {@link Operand.valueRegister} (then the read is stored as is).
   * @param scalePos - scale position expression (scaled accessors only)
   */
  emitLoad(ar: ArithmeticFormat, dst: Register, pos: string, scalePos?: string): string {
    const st = this.accessor.storage;
    if (dst.kind !== ar.kind) {
      if (dst.kind !== 'number' || st.kind !== 'number' || this.accessor.scale) throw new Error(`modprec: cannot load ${st.name} into a ${dst.kind} register of ${ar.name}`);
      return st.emitRead(this.data, pos, dst);
    }
    let code = this.direct(ar)
      ? st.emitRead(this.data, pos, dst)
      : `${st.emitRead(this.data, pos, this.tmp)} ${ar.emitConvert(dst, this.tmp, st.significandBits)}`;
    if (this.accessor.scale) {
      const sc = ar.register(`${this.name}_sc`);
      code += ` ${ar.emitFromNumber(sc, `${this.scaleData}[${scalePos}]`)} ${ar.emitMul(dst, dst, sc)}`;
    }
    return code;
  }

  /**
   * Statements: element at `pos` := `src` (a register of `ar`, clobbered when scaled), divided by the scale
   * and rounded to the storage. Into RNS storage from an IEEE arithmetic a non-finite value throws a
   * `StoreFailure` (store-failure.ts) carrying `pos`, before the element is touched; so does an error a user's
   * storage format throws in its write.
   */
  emitStore(ar: ArithmeticFormat, src: Register, pos: string, scalePos?: string): string {
    const code = this.emitStoreUnchecked(ar, src, pos, scalePos);
    // A user's storage may refuse a value in its write: reported with the element's position (store-failure.ts).
    const st = this.accessor.storage;
    return storeCatches(st) ? emitCaughtWrite(code, pos, st.name) : code;
  }

  /** The store's statements without the catch of a user storage's refusal. */
  private emitStoreUnchecked(ar: ArithmeticFormat, src: Register, pos: string, scalePos?: string): string {
    const st = this.accessor.storage;
    if (this.accessor.scale && st.isInteger) return this.emitScaledIntegerStore(ar, src, pos, scalePos!);
    let code = '';
    if (this.accessor.scale) {
      const sc = ar.register(`${this.name}_sc`);
      code += `${ar.emitFromNumber(sc, `${this.scaleData}[${scalePos}]`)} ${ar.emitDiv(src, src, sc)} `;
    }
    if (this.writesDirect(ar)) return code + st.emitWrite(this.data, pos, src);
    // RNS storage holds finite values only: a non-finite result is refused before its conversion (store-failure.ts).
    if (storeChecksFinite(st, ar)) code += emitFiniteCheck(src, pos, st.name) + ' ';
    return code + `${ar.emitExport(this.tmp, src, st.significandBits)} ${st.emitWrite(this.data, pos, this.tmp)}`;
  }

  /**
   * An integer storage under a scale keeps the exact src / scale rounded to the nearest integer in one step
   * (src/formats/convert/scaled-integer.ts), not the arithmetic's rounded quotient rounded again.
   */
  private emitScaledIntegerStore(ar: ArithmeticFormat, src: Register, pos: string, scalePos: string): string {
    const s = `${this.scaleData}[${scalePos}]`;
    const q = numberRegister(`${this.name}_rounded`);
    const quotient = src.kind === 'mp'
      ? `const ${q.names[0]} = nearestIntegerOfMpQuotient(${src.names[0]}, ${s});`
      : nearestIntegerSource(q.names[0]!, src.names[0]!, src.kind === 'dd' ? src.names[1]! : '0', s);
    return `{ ${quotient} ${this.accessor.storage.emitWrite(this.data, pos, q)} }`;
  }
}
