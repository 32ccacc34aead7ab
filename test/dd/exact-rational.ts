/**
 * A tiny exact rational type for the tests, written independently of src/formats/dd/rational.ts
 * (doubles are decomposed by exact doubling, not by reading their bits).
 */
export class Q {
  readonly n: bigint;
  readonly d: bigint;
  constructor(n: bigint, d = 1n) {
    if (d === 0n) throw new Error('zero denominator');
    if (d < 0n) { n = -n; d = -d; }
    const g = gcd(n < 0n ? -n : n, d);
    this.n = g > 1n ? n / g : n;
    this.d = g > 1n ? d / g : d;
  }
  /** Exact value of a finite double: scale by 2 until integral (exact), then BigInt. */
  static of(x: number): Q {
    if (!Number.isFinite(x)) throw new Error(`not finite: ${x}`);
    let k = 0;
    while (!Number.isInteger(x)) { x *= 2; k++; }
    return new Q(BigInt(x), 1n << BigInt(k));
  }
  /** Exact hi + lo. */
  static dd(hi: number, lo: number): Q { return Q.of(hi).add(Q.of(lo)); }
  add(b: Q): Q { return new Q(this.n * b.d + b.n * this.d, this.d * b.d); }
  sub(b: Q): Q { return new Q(this.n * b.d - b.n * this.d, this.d * b.d); }
  mul(b: Q): Q { return new Q(this.n * b.n, this.d * b.d); }
  div(b: Q): Q { return new Q(this.n * b.d, this.d * b.n); }
  neg(): Q { return new Q(-this.n, this.d); }
  abs(): Q { return this.n < 0n ? this.neg() : this; }
  cmp(b: Q): number { const x = this.n * b.d - b.n * this.d; return x < 0n ? -1 : x > 0n ? 1 : 0; }
  isZero(): boolean { return this.n === 0n; }
  /** Approximate value (for messages and for ratios far from any bound). */
  toNumber(): number {
    const a = this.n < 0n ? -this.n : this.n;
    if (a === 0n) return 0;
    const shift = this.d.toString(2).length - a.toString(2).length + 64;
    const q = shift >= 0 ? (a << BigInt(shift)) / this.d : a / (this.d << BigInt(-shift));
    return (this.n < 0n ? -1 : 1) * Number(q) * 2 ** -shift;
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** Whether |approx − exact| ≤ bound·|exact|, decided exactly (bound is a double). */
export function withinRelative(approx: Q, exact: Q, bound: number): boolean {
  return approx.sub(exact).abs().cmp(Q.of(bound).mul(exact.abs())) <= 0;
}

/** |approx − exact| / |exact| as a double (0 when both are zero). */
export function relativeError(approx: Q, exact: Q): number {
  if (exact.isZero()) return approx.isZero() ? 0 : Infinity;
  return approx.sub(exact).abs().div(exact.abs()).toNumber();
}

/** The neighbouring doubles of x (next up, next down), by bit manipulation. */
export function neighbours(x: number): [number, number] {
  const v = new DataView(new ArrayBuffer(8));
  const step = (up: boolean): number => {
    if (x === 0) return up ? 5e-324 : -5e-324;
    v.setFloat64(0, x);
    const b = v.getBigUint64(0);
    v.setBigUint64(0, (x > 0) === up ? b + 1n : b - 1n);
    return v.getFloat64(0);
  };
  return [step(true), step(false)];
}

/** Whether x is a nearest double to the exact value q (ties either way accepted). */
export function isNearestDouble(x: number, q: Q): boolean {
  const d = Q.of(x).sub(q).abs();
  return neighbours(x).every((y) => !Number.isFinite(y) || Q.of(y).sub(q).abs().cmp(d) >= 0);
}
