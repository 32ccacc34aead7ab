/**
 * Which allocation-free convention for scalar double-double functions (issue 3, "choose, measure, document"):
 * a DD dot product n = 2^20 written with each convention, in the same run:
 * - out-buffer: the exported API, `ddMul(out, …)` / `ddAdd(out, …)` writing into a caller-owned Float64Array(2);
 * - result object: the same algorithms writing `out.hi` / `out.lo` of a caller-owned object;
 * - module register: returning hi and leaving lo in a module-level variable;
 * - the immutable `DD` class (allocates per operation), and plain fp64 for scale;
 * - the price of the exported functions' argument checks (an instanceof, a length compare and a typeof per
 *   operand): `ddMul` + `ddAdd` and `twoProd` + `twoSum` against the same algorithms without the checks.
 * Run: npx tsc -p tsconfig.json && node dist/bench/dd-api.js
 */
import { ddMul, mulPairs } from '../src/formats/dd/mul.js';
import { addPairs, ddAdd } from '../src/formats/dd/add.js';
import { productPair, sumPair, twoProd, twoSum } from '../src/formats/dd/eft.js';
import { DD } from '../src/formats/dd/dd-value.js';
import { markdownTable, machineDescription, today, writePerformanceSection, writeResults } from './report.js';
import { race, randomVector, fmt } from './dd-timing.js';

const n = 2 ** 20;
const x = randomVector(n, 5);
const y = randomVector(n, 6);
const SPLITTER = 134217729;

/** DWTimesDW1 + AccurateDWPlusDW writing into a Float64Array(2) (the exported convention, fused by hand). */
function mulAddBuffer(out: Float64Array, ah: number, al: number, bh: number, bl: number, ch: number, cl: number): void {
  const p = ah * bh;
  let t = SPLITTER * ah; const a1 = t - (t - ah), a2 = ah - a1;
  t = SPLITTER * bh; const b1 = t - (t - bh), b2 = bh - b1;
  const c0 = ((((a1 * b1 - p) + a1 * b2) + a2 * b1) + a2 * b2) + (ah * bl + al * bh);
  const mh = p + c0, ml = c0 - (mh - p);
  const sh = mh + ch; let z = sh - mh; const sl = (mh - (sh - z)) + (ch - z);
  const th = ml + cl; z = th - ml; const tl = (ml - (th - z)) + (cl - z);
  const c = sl + th, vh = sh + c, w = tl + (c - (vh - sh)), hi = vh + w;
  out[1] = w - (hi - vh); out[0] = hi;
}

/** The same writing into an object. */
function mulAddObject(out: { hi: number; lo: number }, ah: number, al: number, bh: number, bl: number, ch: number, cl: number): void {
  const p = ah * bh;
  let t = SPLITTER * ah; const a1 = t - (t - ah), a2 = ah - a1;
  t = SPLITTER * bh; const b1 = t - (t - bh), b2 = bh - b1;
  const c0 = ((((a1 * b1 - p) + a1 * b2) + a2 * b1) + a2 * b2) + (ah * bl + al * bh);
  const mh = p + c0, ml = c0 - (mh - p);
  const sh = mh + ch; let z = sh - mh; const sl = (mh - (sh - z)) + (ch - z);
  const th = ml + cl; z = th - ml; const tl = (ml - (th - z)) + (cl - z);
  const c = sl + th, vh = sh + c, w = tl + (c - (vh - sh)), hi = vh + w;
  out.lo = w - (hi - vh); out.hi = hi;
}

let register = 0;
/** The same, returning hi and leaving lo in a module-level variable. */
function mulAddRegister(ah: number, al: number, bh: number, bl: number, ch: number, cl: number): number {
  const p = ah * bh;
  let t = SPLITTER * ah; const a1 = t - (t - ah), a2 = ah - a1;
  t = SPLITTER * bh; const b1 = t - (t - bh), b2 = bh - b1;
  const c0 = ((((a1 * b1 - p) + a1 * b2) + a2 * b1) + a2 * b2) + (ah * bl + al * bh);
  const mh = p + c0, ml = c0 - (mh - p);
  const sh = mh + ch; let z = sh - mh; const sl = (mh - (sh - z)) + (ch - z);
  const th = ml + cl; z = th - ml; const tl = (ml - (th - z)) + (cl - z);
  const c = sl + th, vh = sh + c, w = tl + (c - (vh - sh)), hi = vh + w;
  register = w - (hi - vh);
  return hi;
}

const buf = new Float64Array(2);
const obj = { hi: 0, lo: 0 };
const t = race({
  'out-buffer Float64Array(2), fused multiply-add': () => {
    buf[0] = 0; buf[1] = 0;
    for (let i = 0; i < n; i++) mulAddBuffer(buf, x[i]!, 0, y[i]!, 0, buf[0]!, buf[1]!);
    return buf[0]! + buf[1]!;
  },
  'out-buffer, exported ddMul then ddAdd': () => {
    let sh = 0, sl = 0;
    for (let i = 0; i < n; i++) { ddMul(buf, x[i]!, 0, y[i]!, 0); ddAdd(buf, buf[0]!, buf[1]!, sh, sl); sh = buf[0]!; sl = buf[1]!; }
    return sh + sl;
  },
  'out-buffer, ddMul then ddAdd without the argument checks': () => {
    let sh = 0, sl = 0;
    for (let i = 0; i < n; i++) { mulPairs(buf, x[i]!, 0, y[i]!, 0); addPairs(buf, buf[0]!, buf[1]!, sh, sl); sh = buf[0]!; sl = buf[1]!; }
    return sh + sl;
  },
  'out-buffer, exported twoProd then twoSum (sum of products and errors)': () => {
    let s = 0, e = 0;
    for (let i = 0; i < n; i++) { twoProd(buf, x[i]!, y[i]!); e += buf[1]!; twoSum(buf, s, buf[0]!); s = buf[0]!; e += buf[1]!; }
    return s + e;
  },
  'out-buffer, twoProd then twoSum without the argument checks': () => {
    let s = 0, e = 0;
    for (let i = 0; i < n; i++) { productPair(buf, x[i]!, y[i]!); e += buf[1]!; sumPair(buf, s, buf[0]!); s = buf[0]!; e += buf[1]!; }
    return s + e;
  },
  'caller-owned result object, fused multiply-add': () => {
    obj.hi = 0; obj.lo = 0;
    for (let i = 0; i < n; i++) mulAddObject(obj, x[i]!, 0, y[i]!, 0, obj.hi, obj.lo);
    return obj.hi + obj.lo;
  },
  'module-level register for lo, fused multiply-add': () => {
    let sh = 0, sl = 0;
    for (let i = 0; i < n; i++) { sh = mulAddRegister(x[i]!, 0, y[i]!, 0, sh, sl); sl = register; }
    return sh + sl;
  },
  'immutable DD class (allocates)': () => {
    let s = DD.ZERO;
    for (let i = 0; i < n; i++) s = s.add(DD.from(x[i]!).mul(y[i]!));
    return s.toNumber();
  },
  'plain fp64 loop': () => { let s = 0; for (let i = 0; i < n; i++) s += x[i]! * y[i]!; return s; },
}, 7);

const rows = Object.entries(t).map(([name, ms]) => [name, fmt(ms), fmt((ms * 1e6) / n)]);
writeResults('dd-api', { n, milliseconds: t });
writePerformanceSection('dd-api', `## Double-double scalar API conventions (DD dot, n = 2^20)

${today()}, ${machineDescription()}; median of 7 round-robin runs (bench/dd-api.ts).

${markdownTable(['convention', 'ms', 'ns / element'], rows)}

The three fused variants differ only in where the result goes. A module-level register is the slowest (every
access goes through the module context); a caller-owned \`Float64Array(2)\` and a caller-owned object are close
(within run-to-run noise on a shared machine, either may lead). The exported API uses the buffer: typed-array
stores never change an object's shape, and it is the form the interleaved storage uses. Hot loops should not
call the scalar functions at all: kernels inline the same algorithms as source templates (see dd-dot).
The immutable \`DD\` class is for convenience, not for loops. The exported functions check their arguments (an
\`instanceof\` and a length compare for \`out\`, a \`typeof\` per operand, so bad input is a \`ModprecError\`); the
rows "without the argument checks" run the same algorithms without them, for the price of the checks.
`);
console.log(markdownTable(['convention', 'ms', 'ns / element'], rows));
