// The playground's page logic: builds the operands in the chosen storage format, runs the kernel on the chosen
// backend and arithmetic, and compares the result with the exact value of the stored operands (BigInt) and with
// modprec's a-priori bound. Plain ES module over the library's browser bundle (lib/, `npm run build:playground`).
import { dot, gemv, dotBound, gemvBound, vector, matrix, toArray, formats, ModprecError } from './lib/modprec.js';

const $ = (id) => document.getElementById(id);
const MAX_DOT = 1_000_000;
const MAX_GEMV = 4096;

/** Deterministic uniform values in [-1, 1) (mulberry32), so a run can be repeated. */
function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * 2 - 1;
  };
}

// Exact arithmetic on doubles: every finite double is an integer multiple of 2^-1074, a product of two of 2^-2148.
const view = new DataView(new ArrayBuffer(8));
/** v · 2^1074 as a BigInt (exact). */
function scaled(v) {
  view.setFloat64(0, v);
  const hi = view.getUint32(0), lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased !== 0) m |= 1n << 52n;
  const shift = BigInt(Math.max(biased, 1) - 1);
  const s = m << shift;
  return hi >>> 31 ? -s : s;
}
/** The exact Σ a_i·b_i, scaled by 2^2148. */
function exactDot(a, b, offsetA = 0, strideA = 1) {
  let s = 0n;
  for (let i = 0; i < b.length; i++) s += scaled(a[offsetA + i * strideA]) * scaled(b[i]);
  return s;
}
/** x · 2^e without intermediate overflow or underflow. */
function ldexp(x, e) {
  while (e > 1000) { x *= 2 ** 1000; e -= 1000; }
  while (e < -1000) { x *= 2 ** -1000; e += 1000; }
  return x * 2 ** e;
}
/** A BigInt scaled by 2^-scale as the nearest-ish double (64 leading bits, then one rounding). */
function toDouble(big, scale) {
  const negative = big < 0n;
  let mag = negative ? -big : big;
  const bits = mag.toString(16).length * 4;
  const shift = Math.max(0, bits - 64);
  const v = ldexp(Number(mag >> BigInt(shift)), shift - scale);
  return negative ? -v : v;
}
/** |computed − exact| where exact is scaled by 2^2148. */
function absoluteError(computed, exact) {
  if (!Number.isFinite(computed)) return Infinity;
  return Math.abs(toDouble((scaled(computed) << 1074n) - exact, 2148));
}

const fmt = (v) => (typeof v === 'number' ? (Number.isFinite(v) ? v.toPrecision(17).replace(/\.?0+e/, 'e') : String(v)) : String(v));
const fmtShort = (v) => (Number.isFinite(v) ? v.toExponential(3) : String(v));

function settings() {
  const kernel = $('kernel').value;
  const n = Number($('size').value);
  const max = kernel === 'gemv' ? MAX_GEMV : MAX_DOT;
  if (!Number.isInteger(n) || n < 1 || n > max) throw new RangeError(`size must be an integer from 1 to ${max} for ${kernel.toUpperCase()}`);
  return { kernel, n, storage: $('storage').value, arithmetic: $('arithmetic').value, backend: $('backend').value };
}

/** Options for the kernel call: the arithmetic by name (every backend takes names), the backend, strict GPU use. */
function kernelOptions(s) {
  const o = {};
  if (s.arithmetic !== 'auto') o.arithmetic = s.arithmetic;
  if (s.backend === 'gpu') { o.backend = 'gpu'; o.strict = true; }
  return o;
}

/** The arithmetic a run used, as a format the bound understands (undefined: a GPU-only arithmetic such as ff). */
function boundArithmetic(s, report) {
  if (s.arithmetic !== 'auto') return s.arithmetic;
  const used = report && report.arithmetic;
  if (used === undefined) return undefined; // CPU default: the bound picks the same default
  return Object.prototype.hasOwnProperty.call(formats, used) ? used : null;
}

async function timed(call) {
  await call(); // the first call generates and compiles the kernel (and uploads, on the GPU)
  const t0 = performance.now();
  const out = await call();
  return { out, ms: performance.now() - t0 };
}

async function runDot(s) {
  const next = uniform(1);
  const x = vector(Array.from({ length: s.n }, next), { storage: formats[s.storage] });
  const y = vector(Array.from({ length: s.n }, next), { storage: formats[s.storage] });
  const options = kernelOptions(s);
  const { out, ms } = await timed(() => dot(x, y, options));
  const value = typeof out === 'number' ? out : out.value;
  const report = typeof out === 'number' ? undefined : out;
  const exact = exactDot(toArray(x), toArray(y));
  const error = absoluteError(value, exact);
  const ar = boundArithmetic(s, report);
  const bound = ar === null ? undefined : dotBound(x, y, ar === undefined ? {} : { arithmetic: ar });
  return { result: fmt(value), exact: fmt(toDouble(exact, 2148)), error, bound, ms, report };
}

async function runGemv(s) {
  const next = uniform(2);
  const n = s.n;
  const A = matrix(n, n, () => next(), { storage: formats[s.storage] });
  const x = vector(Array.from({ length: n }, next), { storage: formats[s.storage] });
  const y = vector(n, { storage: formats.f64 });
  const args = { alpha: 1, A, x, beta: 0, y };
  const options = kernelOptions(s);
  const { out, ms } = await timed(() => gemv(args, options));
  const report = out === undefined ? undefined : out;
  const a = toArray(A), xs = toArray(x), ys = toArray(y); // toArray is row-major: row i starts at i·n
  let error = 0, worst = 0, exactWorst = 0n;
  const errors = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = exactDot(a, xs, i * n, 1);
    errors[i] = absoluteError(ys[i], e);
    if (errors[i] > error || i === 0) { error = errors[i]; worst = i; exactWorst = e; }
  }
  const ar = boundArithmetic(s, report);
  let bound, within;
  if (ar !== null) {
    const b = gemvBound(args, ar === undefined ? {} : { arithmetic: ar });
    bound = b[worst];
    within = errors.every((e, i) => e <= b[i]);
  }
  return { result: `y[${worst}] = ${fmt(ys[worst])} (the row with the largest error)`, exact: fmt(toDouble(exactWorst, 2148)), error, bound, within, ms, report };
}

function show(s, r) {
  const within = r.within ?? (r.bound === undefined ? undefined : r.error <= r.bound);
  $('out-result').textContent = r.result;
  $('out-exact').textContent = r.exact;
  $('out-error').textContent = fmtShort(r.error);
  $('out-error').dataset.value = String(r.error);
  $('out-bound').textContent = r.bound === undefined ? 'not available for this arithmetic' : fmtShort(r.bound);
  $('out-bound').dataset.value = String(r.bound ?? '');
  $('out-within').textContent = within === undefined ? '—' : within ? 'yes' : 'NO';
  $('out-within').className = within === undefined ? '' : within ? 'ok' : 'bad';
  $('out-within').dataset.value = String(within ?? '');
  $('out-time').textContent = `${r.ms.toFixed(3)} ms`;
  const rep = r.report;
  $('out-ran').textContent = rep ? `${rep.backend === 'gpu' ? `WebGPU, ${rep.adapter}` : 'CPU'} · arithmetic ${rep.arithmetic}` : `CPU (generated JavaScript) · arithmetic ${s.arithmetic}`;
  $('out-ran').dataset.value = rep ? rep.backend : 'cpu';
  $('results').hidden = false;
}

async function run(event) {
  event?.preventDefault();
  const status = $('status');
  $('run').disabled = true;
  document.body.dataset.state = 'running';
  status.className = '';
  status.textContent = 'Running…';
  try {
    const s = settings();
    const r = s.kernel === 'dot' ? await runDot(s) : await runGemv(s);
    show(s, r);
    status.textContent = `${s.kernel.toUpperCase()} of size ${s.n}: ${s.storage} storage, ${s.arithmetic} arithmetic, ${s.backend === 'gpu' ? 'WebGPU' : 'CPU'}.`;
    document.body.dataset.state = 'done';
  } catch (e) {
    $('results').hidden = true;
    status.className = 'error';
    // modprec's errors name the parameter and what is allowed: show them as they are.
    status.textContent = e instanceof ModprecError ? `${e.code}: ${e.message}` : `${e.name}: ${e.message}`;
    document.body.dataset.state = 'error';
    document.body.dataset.errorCode = e instanceof ModprecError ? e.code : e.name;
  } finally {
    $('run').disabled = false;
  }
}

$('controls').addEventListener('submit', run);
if (!('gpu' in navigator)) $('backend').querySelector('option[value="gpu"]').textContent = 'WebGPU (not in this browser)';
$('status').textContent = 'Ready: choose and press Run.';
document.body.dataset.state = 'ready';
