/**
 * Scaled ranges (the CPU's scale model: a scale per masked index, fp64 scales) given to `backend: 'gpu'` on the
 * llvmpipe adapter: inputs are read on the device as the CPU reads them, outputs are written as the CPU's scaled
 * stores write them (integer storage: the exact value / scale rounded once). Checked three ways:
 * - element-wise kernels (WAXPBY, AXPY, SCAL), whose arithmetic is the same on both backends: the GPU's storage
 *   (every byte of it, sentinels around the views included) equals the CPU's bit for bit, for random scales and the
 *   edge cases (±∞, NaN, huge, tiny, zero);
 * - reductions and matrices (DOT, ASUM, NRM2, GEMV N/T, TRSV, ELL SpMV): with power-of-two scales stored × scale is
 *   exact, so the scaled run must equal, bit for bit, the GPU run on an unscaled f64 copy of those values — any
 *   wrong scale index (mask, strides, offsets, sub-ranges, layouts) changes the result;
 * - scaled outputs of GEMV, TRSV and ELL SpMV on integer data whose products and sums are exact: the GPU's
 *   integers equal the CPU's.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formats, range, scaledReducedRowMajor, scaledReducedColMajor, rowMajor, colMajor, vector, waxpby, axpy, scal, dot, asum, nrm2,
  gemv, trsv, ellSpmv, ellOperand, ellStructure, ELL_PADDING, type Range,
} from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { deviceScaledStoreCount } from '../../src/backends/webgpu/scaled-store.js';
import { deviceScaledQuotientCount } from '../../src/backends/webgpu/scaled-float-store.js';
import { setBindingLimitForTests } from '../../src/backends/webgpu/device-array.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';

type StorageName = 'i8' | 'i16' | 'f16' | 'bf16' | 'f32' | 'f64';
const STORAGES: StorageName[] = ['i8', 'i16', 'f16', 'bf16', 'f32', 'f64'];
const ARITHMETICS = [formats.f32, formats.ff] as const;
/** Bytes per stored element. */
const BYTES: Record<StorageName, number> = { i8: 1, i16: 2, f16: 2, bf16: 2, f32: 4, f64: 8 };

/** xorshift32 in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** A stored value of `storage` (an integer for integer storage), drawn from `r`. */
function storedValue(storage: StorageName, r: () => number): number {
  if (storage === 'i8') return Math.floor(r() * 255) - 127;
  if (storage === 'i16') return Math.floor(r() * 65535) - 32767;
  return (r() * 2 - 1) * 2 ** Math.floor(r() * 8 - 4);
}

/** Fills every element of `data` (the whole buffer: views' neighbours are sentinels) with stored values. */
function fillStorage(storage: StorageName, data: ArrayLike<number>, r: () => number): void {
  const st = (formats as Record<string, any>)[storage].storage ?? (formats as Record<string, any>)[storage];
  for (let k = 0; k < data.length; k++) st.encode(data, k, storedValue(storage, r));
}

function storageOf(name: StorageName): any {
  const f = (formats as Record<string, any>)[name];
  return f.storage ?? f;
}

interface VectorCase { storage: StorageName; n: number; stride: number; pad: number; perElement: boolean }

/** A scaled vector over a sentinel-filled buffer (`data`, `scale` shared by the CPU's and the GPU's copies). */
function scaledVector(c: VectorCase, arithmetic: any, data: any, scale: Float64Array): Range<1, any> {
  const offset = c.pad + (c.stride < 0 ? -c.stride * Math.max(0, c.n - 1) : 0);
  return range(scaledReducedRowMajor<1>({ size: [c.n], storage: storageOf(c.storage), arithmetic, scaleMask: [c.perElement], scale, stride: c.stride, offset, data }));
}

function bufferFor(c: VectorCase, r: () => number): any {
  const st = storageOf(c.storage);
  const data = st.allocate(2 * c.pad + 1 + Math.abs(c.stride) * Math.max(0, c.n - 1));
  fillStorage(c.storage, data, r);
  return data;
}

/** Scales: powers of two, or random doubles (rounded to binary32 with `binary32`). */
function scalesFor(count: number, r: () => number, powersOfTwo: boolean, binary32 = false): Float64Array {
  return Float64Array.from({ length: count }, () => {
    const e = Math.floor(r() * 24) - 12;
    const sign = r() < 0.2 ? -1 : 1;
    const s = sign * (powersOfTwo ? 2 ** e : (0.5 + r()) * 2 ** e);
    return binary32 ? Math.fround(s) : s;
  });
}

/** Bits of a typed array, for exact comparison (NaN payloads and −0 included). */
function bits(data: ArrayBufferView): Uint8Array {
  return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
}

/**
 * `v`, or its float-float high word where its low word is a binary32 subnormal: that word reads as 0 on a device that
 * flushes them (the NVIDIA driver does; WGSL allows it), so such a value is not the same input everywhere.
 */
function keptByFlushingDevices(v: number): number {
  if (!Number.isFinite(v)) return v;
  const lo = Math.fround(v - Math.fround(v));
  return lo !== 0 && Math.abs(lo) < 2 ** -126 ? Math.fround(v) : v;
}

/**
 * `bytes` (elements of `storage`) with every NaN code made one pattern: IEEE 754 leaves the sign and payload of an
 * operation's NaN to the implementation (the NVIDIA driver gives 0x7FFFFFFF, llvmpipe and x86 0x7FC00000 or its
 * negative), and a 16-bit store keeps the top of it.
 */
function nanAsOne(bytes: Uint8Array, storage: StorageName): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const size = BYTES[storage];
  for (let k = 0; k + size <= out.length; k += size) {
    const nan =
      storage === 'f16' ? (view.getUint16(k, true) & 0x7fff) > 0x7c00
      : storage === 'bf16' ? (view.getUint16(k, true) & 0x7fff) > 0x7f80
      : storage === 'f32' ? Number.isNaN(view.getFloat32(k, true))
      : storage === 'f64' ? Number.isNaN(view.getFloat64(k, true)) : false;
    if (nan) out.fill(0xee, k, k + size);
  }
  return out;
}

/**
 * The floating-point output properties' check: WAXPBY 1·x + 0·x (x the f64 `values`) into the scaled view `c` of a
 * copy of `data`, on the CPU and then on the GPU (planning for `limit` bytes a binding when given). The scales are
 * written after the range is made (it refuses zero and non-finite ones; later writes to its array reach the kernels).
 * The device's quotient pass must have run once, and every byte of the storage, the view's neighbours included, must be
 * the CPU's.
 */
async function expectFloatOutputAsCpu(c: VectorCase, arithmetic: any, data: any, scale: Float64Array, values: Float64Array, limit?: number, label: unknown = ''): Promise<void> {
  const run = async (backend: 'cpu' | 'gpu'): Promise<Uint8Array> => {
    const d = data.slice();
    const sc = new Float64Array(scale.length).fill(1);
    const out = scaledVector(c, arithmetic, d, sc);
    sc.set(scale);
    const x = vector(values, { storage: formats.f64, arithmetic });
    if (backend === 'cpu') waxpby(1, x, 0, x, out, { arithmetic });
    else {
      setBindingLimitForTests(limit);
      try {
        await waxpby(1, x, 0, x, out, { backend: 'gpu', arithmetic, strict: true });
      } finally {
        setBindingLimitForTests(undefined);
      }
    }
    return bits(d);
  };
  const before = deviceScaledQuotientCount();
  const cpu = await run('cpu'), gpu = await run('gpu');
  expect(deviceScaledQuotientCount()).toBe(before + 1);
  expect([label, Array.from(nanAsOne(flushedAsKept(gpu, cpu, c.storage), c.storage))]).toEqual([label, Array.from(nanAsOne(cpu, c.storage))]);
}

/**
 * `gpu` with each ±0 where `cpu` holds a binary32 subnormal of that sign (f32, bf16 storage), and each f64 element
 * that is the CPU's float-float quotient without a subnormal low word, taken as the CPU's bytes: WGSL lets a device
 * flush binary32 subnormals (the NVIDIA driver does: 2^-149 stored as 0; llvmpipe keeps them).
 */
function flushedAsKept(gpu: Uint8Array, cpu: Uint8Array, storage: StorageName): Uint8Array {
  if (storage === 'f64') {
    // A float-float quotient whose low word is a binary32 subnormal keeps its high word alone there.
    const out = new Float64Array(gpu.slice().buffer), want = new Float64Array(cpu.slice().buffer);
    for (let k = 0; k < out.length; k++) {
      const lo = want[k]! - Math.fround(want[k]!);
      if (lo !== 0 && Math.abs(lo) < 2 ** -126 && out[k] === Math.fround(want[k]!)) out[k] = want[k]!;
    }
    return new Uint8Array(out.buffer);
  }
  if (storage !== 'f32' && storage !== 'bf16') return gpu;
  const out = gpu.slice();
  const [g, h] = [new DataView(out.buffer), new DataView(cpu.buffer, cpu.byteOffset, cpu.byteLength)];
  const size = BYTES[storage];
  const word = (v: DataView, k: number): number => (storage === 'f32' ? v.getUint32(k, true) : v.getUint16(k, true) << 16);
  for (let k = 0; k + size <= out.length; k += size) {
    const [gw, hw] = [word(g, k), word(h, k)];
    const subnormal = (hw & 0x7f800000) === 0 && (hw & 0x7fffffff) !== 0;
    if (subnormal && (gw & 0x7fffffff) === 0 && (gw >>> 31) === (hw >>> 31)) out.set(cpu.subarray(k, k + size), k);
  }
  return out;
}

const vectorCase = fc.record({
  storage: fc.constantFrom(...STORAGES),
  n: fc.integer({ min: 1, max: 40 }),
  stride: fc.constantFrom(1, 2, 3, -1, -2),
  pad: fc.integer({ min: 0, max: 5 }),
  perElement: fc.boolean(),
});

describe("scaled ranges with backend 'gpu'", () => {
  it('WAXPBY, AXPY and SCAL with scaled inputs and outputs: every byte of the storage equals the CPU run', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(vectorCase, vectorCase, vectorCase, fc.constantFrom(0, 1), fc.integer(), fc.constantFrom(0.75, -3, 1, 0), fc.constantFrom(0.5, 2, 0), fc.boolean(),
      async (cx, cy0, cw0, ai, seed, alpha, beta, binary32) => {
        const arithmetic = ARITHMETICS[ai]!;
        const cy = { ...cy0, n: cx.n }, cw = { ...cw0, n: cx.n };
        const r = rng(seed);
        const [dx, dy, dw] = [bufferFor(cx, r), bufferFor(cy, r), bufferFor(cw, r)];
        // Integer outputs are rounded on the device (scaled-store.ts) with binary32 scales and with any other fp64 ones.
        const [sx, sy, sw] = [cx, cy, cw].map((c) => scalesFor(c.perElement ? c.n : 1, r, false, binary32));
        const stores = deviceScaledStoreCount();
        const run = async (backend: 'cpu' | 'gpu') => {
          const w = [dw.slice(), dy.slice(), dx.slice()];
          const x = scaledVector(cx, arithmetic, w[2], sx), y = scaledVector(cy, arithmetic, w[1], sy), out = scaledVector(cw, arithmetic, w[0], sw);
          if (backend === 'cpu') {
            waxpby(alpha, x, beta, y, out, { arithmetic });
            axpy(alpha, x, y, { arithmetic });
            scal(beta || 0.5, x, { arithmetic });
          } else {
            expect((await waxpby(alpha, x, beta, y, out, { backend: 'gpu', arithmetic, strict: true })).backend).toBe('gpu');
            await axpy(alpha, x, y, { backend: 'gpu', arithmetic, strict: true });
            await scal(beta || 0.5, x, { backend: 'gpu', arithmetic, strict: true });
          }
          return w.map(bits);
        };
        const [cpu, gpu] = [await run('cpu'), await run('gpu')];
        for (let k = 0; k < 3; k++) expect(gpu[k]).toEqual(cpu[k]);
        // WAXPBY's out and SCAL's x, when stored in an integer format (binary32 scales or not), took the device store
        // (AXPY's y too unless α = 0, its quick return).
        const onDevice = [cw, cx].filter((c) => c.storage === 'i8' || c.storage === 'i16').length;
        expect(deviceScaledStoreCount() - stores).toBeGreaterThanOrEqual(onDevice);
      }), { numRuns: 40 });
  });

  it('integer outputs with binary32 scales are rounded on the device: ties to even, near-ties, saturation and NaN as on the CPU', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom('i8' as const, 'i16' as const), fc.constantFrom(0, 1), fc.integer(), async (storage, ai, seed) => {
      const arithmetic = ARITHMETICS[ai]!;
      const r = rng(seed);
      const n = 64;
      const top = storage === 'i8' ? 127 : 32767;
      const scale = Float64Array.from({ length: n }, () => Math.fround((r() < 0.2 ? -1 : 1) * (0.5 + r()) * 2 ** (Math.floor(r() * 40) - 20)));
      // (k + ½)·s exactly (a tie), nudged by ±2^-30·s or ±2^-45·s (ff keeps the nudge, f32 rounds it away), plus
      // values beyond the range (saturation, both signs), ±∞ and NaN.
      const values = Float64Array.from({ length: n }, (_, i) => {
        const s = scale[i]!;
        if (i === 0) return NaN;
        if (i === 1) return Infinity;
        if (i === 2) return -Infinity;
        if (i < 6) return (i % 2 ? 1 : -1) * (top + 0.5 + r() * 4) * Math.abs(s);
        const k = Math.floor(r() * 2 * top) - top;
        const nudge = [0, 0, 2 ** -30, -(2 ** -30), 2 ** -45, -(2 ** -45)][Math.floor(r() * 6)]!;
        return (k + 0.5) * s + nudge * Math.abs(s);
      });
      const run = async (backend: 'cpu' | 'gpu') => {
        const data = storage === 'i8' ? new Int8Array(n + 3).fill(99) : new Int16Array(n + 3).fill(999);
        const out = range(scaledReducedRowMajor<1>({ size: [n], storage: storageOf(storage), arithmetic, scaleMask: [true], scale, offset: 1, data }));
        const x = vector(values, { storage: formats.f64, arithmetic });
        if (backend === 'cpu') waxpby(1, x, 0, x, out, { arithmetic });
        else await waxpby(1, x, 0, x, out, { backend: 'gpu', arithmetic, strict: true });
        return bits(data);
      };
      const stores = deviceScaledStoreCount();
      const cpu = await run('cpu'), gpu = await run('gpu');
      expect(deviceScaledStoreCount()).toBe(stores + 1);
      expect(gpu).toEqual(cpu);
    }), { numRuns: 30 });
  });

  it('integer outputs with fp64 scales that are not binary32 (0.1, 1/3, 53-bit, tiny, huge, subnormal, negative, ±0, ±∞, NaN) are rounded on the device: ties, near-ties, saturation, ±∞ and NaN as on the CPU', async () => {
    await requireRuntime();
    const kinds = ['tenth', 'third', 'random', 'tiny', 'huge', 'subnormal', 'binary32', 'pow2', 'special'] as const;
    await fc.assert(fc.asyncProperty(fc.constantFrom('i8' as const, 'i16' as const), fc.constantFrom(0, 1), fc.integer(), fc.constantFrom(...kinds), async (storage, ai, seed, kind) => {
      const arithmetic = ARITHMETICS[ai]!;
      const r = rng(seed);
      const n = 64;
      const top = storage === 'i8' ? 127 : 32767;
      // A 53-bit significand in [1, 2): two 26-bit halves.
      const sig = () => 1 + Math.floor(r() * 2 ** 26) * 2 ** -26 + Math.floor(r() * 2 ** 26) * 2 ** -52;
      const scaleOf = (): number => {
        const sign = r() < 0.3 ? -1 : 1;
        const e = Math.floor(r() * 40) - 20;
        switch (kind) {
          case 'tenth': return sign * 0.1 * 2 ** e;
          case 'third': return sign * (1 / 3) * 2 ** e;
          case 'random': return sign * sig() * 2 ** e;
          case 'tiny': return sign * sig() * 2 ** (-1000 - Math.floor(r() * 22));
          case 'huge': return sign * sig() * 2 ** (900 + Math.floor(r() * 120));
          case 'subnormal': return sign * Math.max(1, Math.floor(r() * 2 ** 52)) * 2 ** -1074;
          case 'binary32': return Math.fround(sign * sig() * 2 ** e);
          // Scales the CPU's rule stores through its quotient: ±0 saturates (0/0 → 0), ±∞ and NaN give 0; some finite.
          case 'special': return [0, -0, Infinity, -Infinity, NaN, sign * sig() * 2 ** e][Math.floor(r() * 6)]!;
          default: return sign * 2 ** (Math.floor(r() * 190) - 90);
        }
      };
      const scale = Float64Array.from({ length: n }, scaleOf);
      // The arithmetic's value of x (f32: the nearest binary32; ff: the float-float pair of the double).
      const f32 = arithmetic === formats.f32;
      // Values: (k + ½)·s exactly when the arithmetic holds it (a tie), else the nearest; nudged by a few ulp or by
      // ±2^-30·|s| (ff keeps more of the nudges, f32 rounds some away); beyond the range (saturation); ±∞, NaN; and
      // for tiny or huge scales, values of every binary32 magnitude (quotients far beyond the range or far below ½).
      const values = Float64Array.from({ length: n }, (_, i) => {
        const s = scale[i]!;
        if (i === 0) return NaN;
        if (i === 1) return Infinity;
        if (i === 2) return -Infinity;
        if (i === 3) return 0;
        if (i < 8) return (i % 2 ? 1 : -1) * (top + 0.5 + r() * 4) * Math.abs(s);
        if (i < 16) return (r() < 0.5 ? -1 : 1) * sig() * 2 ** (Math.floor(r() * 225) - 100);
        const k = Math.floor(r() * 2 * top) - top;
        const tie = (k + 0.5) * s;
        const nudge = Math.floor(r() * 6);
        if (nudge === 0) return tie;
        if (nudge === 1) return tie + (r() < 0.5 ? -1 : 1) * 2 ** -30 * Math.abs(s);
        // A few ulp of the arithmetic's word away from the tie.
        const w = f32 ? Math.fround(tie) : tie;
        const ulp = Math.abs(w) * (f32 ? 2 ** -23 : 2 ** -52);
        return w + (Math.floor(r() * 7) - 3) * ulp;
      }).map((v) => (f32 ? v : keptByFlushingDevices(v)));
      // Every value is 0 or at least 2^-100 in magnitude, with its arithmetic's words normal binary32 (a binary32
      // subnormal reads as ±0 on the device in f32 arithmetic, as on adapters that flush them — the documented
      // difference); quotients by tiny or huge scales of values that underflow binary32 are 0 alike on both.
      const run = async (backend: 'cpu' | 'gpu') => {
        const data = storage === 'i8' ? new Int8Array(n + 3).fill(99) : new Int16Array(n + 3).fill(999);
        // Zero and non-finite scales are refused when a range is made; later writes to its array reach the kernels.
        const sc = new Float64Array(n).fill(1);
        const out = range(scaledReducedRowMajor<1>({ size: [n], storage: storageOf(storage), arithmetic, scaleMask: [true], scale: sc, offset: 1, data }));
        sc.set(scale);
        const x = vector(values, { storage: formats.f64, arithmetic });
        if (backend === 'cpu') waxpby(1, x, 0, x, out, { arithmetic });
        else await waxpby(1, x, 0, x, out, { backend: 'gpu', arithmetic, strict: true });
        return bits(data);
      };
      const stores = deviceScaledStoreCount();
      const cpu = await run('cpu'), gpu = await run('gpu');
      expect(deviceScaledStoreCount()).toBe(stores + 1);
      expect([kind, Array.from(gpu)]).toEqual([kind, Array.from(cpu)]);
    }), { numRuns: 48 });
  });

  it('exact ties (k + ½)·s of 53-bit fp64 scales (float-float values hi + lo summed exactly by WAXPBY) round to even on the device, and one unit of the scale\'s last bit decides a near-tie, as on the CPU', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom('i8' as const, 'i16' as const), fc.integer(), async (storage, seed) => {
      const arithmetic = formats.ff;
      const r = rng(seed);
      const n = 64;
      const top = storage === 'i8' ? 127 : 32767;
      // s = ±2^e·(A·2^-6 + B·2^-52): bits at both ends of a double's significand (not a binary32; its parts s2, s3 are
      // both non-zero), sparse enough that t·s/2 (t = 2k + 1 < 2^16) is a float-float pair: t·A·2^(e−7) + t·B·2^(e−53).
      const parts = Array.from({ length: n }, () => ({ sign: r() < 0.3 ? -1 : 1, e: Math.floor(r() * 120) - 60, A: 64 + Math.floor(r() * 64), B: 1 + Math.floor(r() * 127) }));
      const scale = Float64Array.from(parts, (p) => p.sign * 2 ** p.e * (p.A * 2 ** -6 + p.B * 2 ** -52));
      const ks = parts.map(() => Math.floor(r() * 2 * top) - top);
      // 0: the tie; ±1: the tail moved by one unit of 2^(e−53) (the quotient moves by about 2^-53 off the half).
      const nudges = parts.map((_, i) => (i % 3) - 1);
      // Both parts are binary32 values with |lo| far below ulp(hi)/2: the float-float sum hi + lo is the pair (hi, lo), exactly.
      const his = Float64Array.from(parts, (p, i) => p.sign * (2 * ks[i]! + 1) * p.A * 2 ** (p.e - 7));
      const los = Float64Array.from(parts, (p, i) => p.sign * ((2 * ks[i]! + 1) * p.B + nudges[i]!) * 2 ** (p.e - 53));
      const run = async (backend: 'cpu' | 'gpu') => {
        const data = storage === 'i8' ? new Int8Array(n + 3).fill(99) : new Int16Array(n + 3).fill(999);
        const out = range(scaledReducedRowMajor<1>({ size: [n], storage: storageOf(storage), arithmetic, scaleMask: [true], scale, offset: 1, data }));
        const [x, y] = [his, los].map((v) => vector(v, { storage: formats.f64, arithmetic }));
        if (backend === 'cpu') waxpby(1, x!, 1, y!, out, { arithmetic });
        else await waxpby(1, x!, 1, y!, out, { backend: 'gpu', arithmetic, strict: true });
        return data;
      };
      const stores = deviceScaledStoreCount();
      const cpu = await run('cpu'), gpu = await run('gpu');
      expect(deviceScaledStoreCount()).toBe(stores + 1);
      // The oracle: (k + ½) ties to the even of k, k + 1; a nudge up (in the quotient's direction) gives k + 1, down k.
      const expected = ks.map((k, i) => {
        // v/s = (t·s/2 + nudge·sign·2^(e−53))/s: the nudge moves the quotient by nudge·2^(e−53)/|s| (s's sign cancels).
        const nudge = nudges[i]!;
        return nudge === 0 ? (k % 2 === 0 ? k : k + 1) : nudge > 0 ? k + 1 : k;
      });
      expect(Array.from(cpu.subarray(1, n + 1))).toEqual(expected);
      expect(Array.from(gpu)).toEqual(Array.from(cpu));
    }), { numRuns: 30 });
  });

  it('edge scales (±∞, NaN, huge, tiny, subnormal, zero) read and write as on the CPU', async () => {
    await requireRuntime();
    const edge = [Infinity, -Infinity, NaN, 1e300, -1e-300, 2 ** -130, 2 ** -1074, 0, 2 ** 100, -3e30];
    for (const storage of STORAGES) {
      for (const arithmetic of ARITHMETICS) {
        const n = edge.length;
        const r = rng(7);
        const data = storageOf(storage).allocate(n);
        fillStorage(storage, data, r);
        // Scales are validated when a range is made; later writes to the array are what the kernels see.
        const run = async (backend: 'cpu' | 'gpu') => {
          const scale = new Float64Array(n).fill(1);
          const x = range(scaledReducedRowMajor<1>({ size: [n], storage: storageOf(storage), arithmetic, scaleMask: [true], scale, data: data.slice() }));
          scale.set(edge);
          const out = vector(new Float64Array(n), { storage: formats.f64, arithmetic });
          const q = new Int16Array(n);
          const outScale = new Float64Array(n).fill(1);
          const qs = range(scaledReducedRowMajor<1>({ size: [n], storage: formats.i16, arithmetic, scaleMask: [true], scale: outScale, data: q }));
          outScale.set(edge.map((s) => (s === 0 || !Number.isFinite(s) ? s : 1 / s)));
          const y = vector(Float64Array.from({ length: n }, (_, i) => i - 4.5), { storage: formats.f64, arithmetic });
          if (backend === 'cpu') { waxpby(1, x, 0, x, out, { arithmetic }); waxpby(1, y, 0, y, qs, { arithmetic }); }
          else { await waxpby(1, x, 0, x, out, { backend: 'gpu', arithmetic, strict: true }); await waxpby(1, y, 0, y, qs, { backend: 'gpu', arithmetic, strict: true }); }
          return [bits(out.accessor.data as Float64Array), bits(q)];
        };
        const cpu = await run('cpu'), gpu = await run('gpu');
        // f32 arithmetic: a scale whose binary32 rounding is subnormal reads as ±0 on the device (as an f64 value
        // does; GPUs may flush subnormals), the nearest binary32 on the CPU — the one documented difference.
        if (arithmetic === formats.f32) {
          const sub = [5, 6].map((i) => i);
          const f = (b: Uint8Array) => Array.from(new Float64Array(b.buffer)).filter((_, i) => !sub.includes(i));
          expect(f(gpu[0]!)).toEqual(f(cpu[0]!));
        } else {
          expect([storage, Array.from(new Float64Array(gpu[0]!.buffer))]).toEqual([storage, Array.from(new Float64Array(cpu[0]!.buffer))]);
        }
        expect(gpu[1]).toEqual(cpu[1]);
      }
    }
  });

  it('floating-point scaled outputs (f16, bf16, f32, f64) are divided and rounded on the device, every byte of the storage the CPU\'s: scales 0.1, 1/3, binary32-subnormal, tiny, huge, subnormal, ±0, ±∞, NaN; strided views among their neighbours', async () => {
    await requireRuntime();
    const kinds = ['tenth', 'third', 'wide', 'f32sub', 'tiny', 'huge', 'subnormal', 'special'] as const;
    await fc.assert(fc.asyncProperty(fc.constantFrom('f16' as const, 'bf16' as const, 'f32' as const, 'f64' as const), fc.constantFrom(0, 1),
      fc.integer({ min: 1, max: 24 }), fc.constantFrom(1, 2, -1, -3), fc.integer({ min: 0, max: 3 }), fc.boolean(), fc.integer(), fc.constantFrom(...kinds),
      async (storage, ai, n, stride, pad, perElement, seed, kind) => {
        const arithmetic = ARITHMETICS[ai]!;
        const r = rng(seed);
        const c: VectorCase = { storage, n, stride, pad, perElement };
        // The whole buffer holds stored values: the view's neighbours (pad, the gaps of a stride) must keep their bits.
        const data = bufferFor(c, r);
        const sig = () => 1 + Math.floor(r() * 2 ** 26) * 2 ** -26 + Math.floor(r() * 2 ** 26) * 2 ** -52;
        const scaleOf = (): number => {
          const sign = r() < 0.3 ? -1 : 1;
          const e = Math.floor(r() * 40) - 20;
          switch (kind) {
            case 'tenth': return sign * 0.1 * 2 ** e;
            case 'third': return sign * (1 / 3) * 2 ** e;
            // Across binary32's range and past it (f32: the scale rounds to ±∞ or to a subnormal).
            case 'wide': return sign * sig() * 2 ** (Math.floor(r() * 300) - 150);
            case 'f32sub': return sign * sig() * 2 ** (-127 - Math.floor(r() * 23));
            case 'tiny': return sign * sig() * 2 ** (-1000 - Math.floor(r() * 22));
            case 'huge': return sign * sig() * 2 ** (900 + Math.floor(r() * 120));
            case 'subnormal': return sign * Math.max(1, Math.floor(r() * 2 ** 52)) * 2 ** -1074;
            default: return [0, -0, Infinity, -Infinity, NaN, sign * sig() * 2 ** e][Math.floor(r() * 6)]!;
          }
        };
        const scale = Float64Array.from({ length: perElement ? n : 1 }, scaleOf);
        // Values: NaN, ±∞, ±0 first, then 53-bit doubles from 2^-100 to 2^100 (no binary32 subnormals: f32 arithmetic
        // reads those as ±0 on the device, the documented difference); quotients overflow, underflow, go subnormal.
        const specials = [NaN, Infinity, -Infinity, 0, -0];
        const values = Float64Array.from({ length: n }, (_, i) => (i < specials.length && r() < 0.5 ? specials[i]! : (r() < 0.5 ? -1 : 1) * sig() * 2 ** (Math.floor(r() * 200) - 100)))
          .map((v) => (arithmetic === formats.ff ? keptByFlushingDevices(v) : v));
        await expectFloatOutputAsCpu(c, arithmetic, data, scale, values, undefined, kind);
      }), { numRuns: 48 });
  });

  it('DOT, ASUM, NRM2 with power-of-two scales equal, bit for bit, the GPU runs on unscaled f64 copies of the values', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(vectorCase, vectorCase, fc.constantFrom(0, 1), fc.integer(), async (cx, cy0, ai, seed) => {
      const arithmetic = ARITHMETICS[ai]!;
      const cy = { ...cy0, n: cx.n };
      const r = rng(seed);
      const x = scaledVector(cx, arithmetic, bufferFor(cx, r), scalesFor(cx.perElement ? cx.n : 1, r, true));
      const y = scaledVector(cy, arithmetic, bufferFor(cy, r), scalesFor(cy.perElement ? cy.n : 1, r, true));
      const twin = (v: Range<1, any>) => vector(Float64Array.from({ length: v.length() }, (_, i) => exactValue(v, [i])), { storage: formats.f64, arithmetic });
      const o = { backend: 'gpu', arithmetic, strict: true } as const;
      expect((await dot(x, y, o)).value).toBe((await dot(twin(x), twin(y), o)).value);
      expect((await asum(x, o)).value).toBe((await asum(twin(x), o)).value);
      expect((await nrm2(y, o)).value).toBe((await nrm2(twin(y), o)).value);
    }), { numRuns: 15 });
  });

  it('GEMV N/T, TRSV and ELL SpMV with scaled matrices (row/column scales, either layout, sub-ranges) equal the GPU runs on f64 copies', async () => {
    await requireRuntime();
    const matrixCase = fc.record({
      storage: fc.constantFrom(...STORAGES), m: fc.integer({ min: 1, max: 20 }), n: fc.integer({ min: 1, max: 20 }),
      rowMajorLayout: fc.boolean(), mask: fc.constantFrom([true, false], [false, true], [true, true], [false, false]),
      sub: fc.boolean(), ai: fc.constantFrom(0, 1), trans: fc.constantFrom('N' as const, 'T' as const), seed: fc.integer(),
    });
    await fc.assert(fc.asyncProperty(matrixCase, vectorCase, async (c, cx0) => {
      const arithmetic = ARITHMETICS[c.ai]!;
      const r = rng(c.seed);
      const A = scaledMatrix(c, c.m, c.n, arithmetic, r);
      const o = { backend: 'gpu', arithmetic, strict: true } as const;
      const twinA = matrixTwin(A, arithmetic);
      const cx = { ...cx0, n: c.trans === 'N' ? c.n : c.m };
      const x = scaledVector(cx, arithmetic, bufferFor(cx, r), scalesFor(cx.perElement ? cx.n : 1, r, true));
      const xTwin = vector(Float64Array.from({ length: x.length() }, (_, i) => exactValue(x, [i])), { storage: formats.f64, arithmetic });
      const rows = c.trans === 'N' ? c.m : c.n;
      const y1 = vector(Float64Array.from({ length: rows }, (_, i) => i), { storage: formats.f64, arithmetic });
      const y2 = vector(Float64Array.from({ length: rows }, (_, i) => i), { storage: formats.f64, arithmetic });
      await gemv({ alpha: 1.5, A, x, beta: 0.25, y: y1, trans: c.trans }, o);
      await gemv({ alpha: 1.5, A: twinA, x: xTwin, beta: 0.25, y: y2, trans: c.trans }, o);
      expect(bits(y1.accessor.data as Float64Array)).toEqual(bits(y2.accessor.data as Float64Array));
      // TRSV on the leading square part, made well-conditioned: a power-of-two diagonal, small off-diagonals.
      const k = Math.min(c.m, c.n);
      const T = A.sub({ begin: 0, end: k }, { begin: 0, end: k });
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) T.set(i, j, i === j ? 2 ** (i % 3) : exactValue(T, [i, j]) / 2 ** 40);
      // A diagonal below an integer storage's scale stores as ±0 (a singular T, all-NaN solutions whose sign IEEE
      // leaves open): raise it by powers of two until the storage holds it.
      for (let i = 0; i < k; i++) for (let e = 1; exactValue(T, [i, i]) === 0 && e < 40; e++) T.set(i, i, 2 ** (i % 3 + e));
      const b1 = vector(Float64Array.from({ length: k }, (_, i) => (i % 5) - 2), { storage: formats.f64, arithmetic });
      const b2 = vector(Float64Array.from({ length: k }, (_, i) => (i % 5) - 2), { storage: formats.f64, arithmetic });
      await trsv({ A: T, x: b1, uplo: 'L', trans: c.trans }, o);
      await trsv({ A: matrixTwin(T, arithmetic), x: b2, uplo: 'L', trans: c.trans }, o);
      expect(Array.from(b1.accessor.data as Float64Array).every(Number.isFinite)).toBe(true);
      expect(bits(b1.accessor.data as Float64Array)).toEqual(bits(b2.accessor.data as Float64Array));
      // ELL SpMV with the scaled matrix as its values (one slot per column: rows m, width n).
      const colIndex = new Int32Array(c.m * c.n).map((_, q) => ((q * 7) % 5 === 0 ? ELL_PADDING : q % c.m % c.m === q % c.m ? Math.floor(q / c.m) % c.n : 0));
      for (let i = 0; i < c.m; i++) {
        // Padding only at the end of a row.
        let pad = false;
        for (let s = 0; s < c.n; s++) { if (colIndex[i + s * c.m] === ELL_PADDING) pad = true; if (pad) colIndex[i + s * c.m] = ELL_PADDING; }
      }
      const structure = ellStructure({ rows: c.m, cols: c.n, width: c.n, stride: c.m, colIndex });
      const xe = vector(Float64Array.from({ length: c.n }, (_, i) => 1 + (i % 3)), { storage: formats.f64, arithmetic });
      const e1 = vector(new Float64Array(c.m), { storage: formats.f64, arithmetic });
      const e2 = vector(new Float64Array(c.m), { storage: formats.f64, arithmetic });
      await ellSpmv({ alpha: 1, A: ellOperand(structure, A.sub({ begin: 0, end: c.m }, { begin: 0, end: c.n })), x: xe, beta: 0, y: e1 }, o);
      await ellSpmv({ alpha: 1, A: ellOperand(structure, matrixTwin(A, arithmetic)), x: xe, beta: 0, y: e2 }, o);
      expect(bits(e1.accessor.data as Float64Array)).toEqual(bits(e2.accessor.data as Float64Array));
    }), { numRuns: 12 });
  });

  it('scaled outputs of GEMV, TRSV and ELL SpMV (old values read through their scales) hold the CPU bits, sentinels around them too', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.constantFrom(0, 1), fc.constantFrom('i8' as const, 'i16' as const, 'f16' as const), fc.constantFrom(1, -2, 3), fc.integer(),
      async (n, ai, storage, stride, seed) => {
        const arithmetic = ARITHMETICS[ai]!;
        const r = rng(seed);
        // Small integers: every product and sum is exact in both arithmetics, so the values written are the same.
        const ints = (k: number) => Float64Array.from({ length: k }, () => Math.floor(r() * 7) - 3);
        const A = matrixOfValues(n, n, ints(n * n), arithmetic);
        for (let i = 0; i < n; i++) for (let j = i; j < n; j++) A.set(i, j, i === j ? 1 : 0); // unit lower triangular
        const x = vector(ints(n), { storage: formats.f64, arithmetic });
        const c: VectorCase = { storage, n, stride, pad: 2, perElement: true };
        const data = bufferFor(c, r);
        const scales = Float64Array.from({ length: n }, () => 2 ** (Math.floor(r() * 4) - 3));
        const structure = ellStructure({ rows: n, cols: n, width: n, stride: n, colIndex: Int32Array.from({ length: n * n }, (_, q) => (q * 5 + 1) % n) });
        // TRSV re-reads x's stored values on the CPU (substitution), and so does the GPU for a scaled integer x (its
        // substitution rounds x_j to the storage between rows); a scaled f16 x is rounded once at the end on the GPU:
        // the same bits only while nothing stored rounds. A bidiagonal system with small values keeps them exact.
        const B = matrixOfValues(n, n, new Float64Array(n * n), arithmetic);
        for (let i = 0; i < n; i++) { B.set(i, i, 1); if (i > 0) B.set(i, i - 1, (i % 3) - 1); }
        const trsvScales = Float64Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : 0.5));
        const run = async (backend: 'cpu' | 'gpu') => {
          const [d1, d2, d3] = [data.slice(), data.slice(), data.slice()];
          const [y1, y3] = [d1, d3].map((d) => scaledVector(c, arithmetic, d, scales));
          const y2 = scaledVector(c, arithmetic, d2, trsvScales);
          for (let i = 0; i < n; i++) y2.set(i, (i % 7) - 3);
          const o = backend === 'gpu' ? { backend: 'gpu', arithmetic, strict: true } as const : { arithmetic };
          await gemv({ alpha: 2, A, x, beta: 0.5, y: y1 }, o as never);
          await trsv({ A: B, x: y2, uplo: 'L', diag: 'U' }, o as never);
          await ellSpmv({ alpha: -1, A: ellOperand(structure, A), x, beta: 2, y: y3 }, o as never);
          return [d1, d2, d3].map(bits);
        };
        const cpu = await run('cpu'), gpu = await run('gpu');
        for (let k = 0; k < 3; k++) expect(gpu[k]).toEqual(cpu[k]);
      }), { numRuns: 12 });
  });

  it('refuses a scaled storage the device does not read (i32) with a typed error naming the operand, before anything runs', async () => {
    await requireRuntime();
    const x = range(scaledReducedRowMajor<1>({ size: [3], storage: formats.i32, arithmetic: formats.f32, scaleMask: [true] }));
    const y = vector([1, 2, 3], { storage: formats.f32 });
    expect(() => dot(x, y, { backend: 'gpu', arithmetic: formats.f32 })).toThrow(expect.objectContaining({ code: 'INVALID_FORMAT', parameter: 'x' }));
  });
});

/** An f64 column-major m×n matrix holding `values` (column-major). */
function matrixOfValues(m: number, n: number, values: Float64Array, arithmetic: any): Range<2, any> {
  const A = range(colMajor<2>({ size: [m, n], storage: formats.f64, arithmetic }));
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, values[i + j * m]!);
  return A;
}

/** stored × scale of element `index`, exactly (a double: power-of-two scales, or the caller rounds). */
function exactValue(r: Range<any, any>, index: number[]): number {
  const a = r.accessor;
  const v = a.storage.decode(a.data as never, a.linearIndex(index)) as number;
  return a.scale ? v * a.scale.data[a.scaleIndex(index)]! : v;
}

/** An unscaled f64 column-major copy of a matrix's exact values. */
function matrixTwin(A: Range<2, any>, arithmetic: any): Range<2, any> {
  const [m, n] = [A.length(0), A.length(1)];
  const T = range(colMajor<2>({ size: [m, n], storage: formats.f64, arithmetic }));
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) T.set(i, j, exactValue(A, [i, j]));
  return T;
}

/** A scaled m×n matrix (the case's layout and mask, power-of-two scales), possibly a sub-range of a larger one. */
function scaledMatrix(c: { storage: StorageName; rowMajorLayout: boolean; mask: boolean[]; sub: boolean }, m: number, n: number, arithmetic: any, r: () => number): Range<2, any> {
  const [M, N] = c.sub ? [m + 3, n + 2] : [m, n];
  const count = (c.mask[0] ? M : 1) * (c.mask[1] ? N : 1);
  const make = c.rowMajorLayout ? scaledReducedRowMajor : scaledReducedColMajor;
  const full = range(make<2>({ size: [M, N], storage: storageOf(c.storage), arithmetic, scaleMask: c.mask, scale: scalesFor(count, r, true), stride: c.rowMajorLayout ? N + 1 : M + 2 }));
  fillStorage(c.storage, full.accessor.data as ArrayLike<number>, r);
  return c.sub ? full.sub({ begin: 2, end: 2 + m }, { begin: 1, end: 1 + n }) : full;
}

describe('scaled ranges over one storage binding (a lowered limit)', () => {
  /** Runs `f` with the kernels planning for `bytes` per binding (every dispatch then checks its bindings against it). */
  async function underLimit<T>(bytes: number | undefined, f: () => Promise<T>): Promise<T> {
    setBindingLimitForTests(bytes);
    try {
      return await f();
    } finally {
      setBindingLimitForTests(undefined);
    }
  }

  it('DOT, ASUM, NRM2, WAXPBY and ELL SpMV read scaled operands in windows (scale base moved with each): the f64 twins\' bits, split alike', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom(...STORAGES), fc.constantFrom(...STORAGES), fc.constantFrom(1, 2, -3), fc.boolean(), fc.constantFrom(0, 1), fc.integer(), async (sx, sy, stride, perElement, ai, seed) => {
      // Windows differ between a scaled operand and its f64 twin (other element sizes), so the sums must not depend on
      // their order: small integers times scales 2^-3 … 2^3, whose sums float-float holds exactly.
      const arithmetic = formats.ff;
      const r = rng(seed);
      const n = 700;
      const cx: VectorCase = { storage: sx, n, stride, pad: 3, perElement };
      const cy: VectorCase = { storage: sy, n, stride: 1, pad: 0, perElement: !perElement };
      const ints = (c: VectorCase) => {
        const data = storageOf(c.storage).allocate(2 * c.pad + 1 + Math.abs(c.stride) * (n - 1));
        for (let k = 0; k < data.length; k++) storageOf(c.storage).encode(data, k, Math.floor(r() * 129) - 64);
        return data;
      };
      const smallScales = (count: number) => Float64Array.from({ length: count }, () => (r() < 0.3 ? -1 : 1) * 2 ** (Math.floor(r() * 7) - 3));
      const x = scaledVector(cx, arithmetic, ints(cx), smallScales(perElement ? n : 1));
      const y = scaledVector(cy, arithmetic, ints(cy), smallScales(perElement ? 1 : n));
      const twin = (v: Range<1, any>) => vector(Float64Array.from({ length: v.length() }, (_, i) => exactValue(v, [i])), { storage: formats.f64, arithmetic });
      const o = { backend: 'gpu', arithmetic, strict: true } as const;
      // 4 KiB, raised where it cannot hold one window of x: windows start on 256-byte boundaries of every operand, 256
      // elements apart when one is 8-bit — 255 strides of x plus a binding's alignment slack (128 elements); f64 x at
      // stride −3 next to i8 y needs 7 KiB (at 4 KiB no window fits: BACKEND_LIMIT).
      const unit = sx === 'i8' || sy === 'i8' ? 256 : 128;
      const xBytes = ((unit - 1) * Math.abs(stride) + 1 + 128) * BYTES[sx];
      const limit = Math.max(4096, Math.ceil(xBytes / 256) * 256);
      await underLimit(limit, async () => {
        expect((await dot(x, y, o)).value).toBe((await dot(twin(x), twin(y), o)).value);
        expect((await asum(x, o)).value).toBe((await asum(twin(x), o)).value);
        expect((await nrm2(y, o)).value).toBe((await nrm2(twin(y), o)).value);
        // A scaled output over the limit: its old values converted in windows, its store on the host (same bits).
        const w1 = scaledVector(cx, arithmetic, bufferFor(cx, rng(seed + 1)), scalesFor(perElement ? n : 1, rng(seed + 2), false, true));
        const w2 = scaledVector(cx, arithmetic, (w1.accessor.data as any).slice(), w1.accessor.scale!.data);
        const ow = { backend: 'gpu', arithmetic: ARITHMETICS[ai]!, strict: true } as const;
        await waxpby(0.75, x, -2, w1, w1, ow);
        waxpby(0.75, x, -2, w2, w2, { arithmetic: ARITHMETICS[ai]! });
        expect(bits(w1.accessor.data as ArrayBufferView)).toEqual(bits(w2.accessor.data as ArrayBufferView));
        // ELL SpMV whose scaled values (m × width, column-major) exceed the limit in f32 and f64 (windows of ELL columns,
        // their partial sums within it); narrower values fit one binding, their f64 twins are split.
        const rows = 120, width = 12;
        const A = scaledMatrix({ storage: sx, rowMajorLayout: false, mask: perElement ? [true, false] : [false, true], sub: true }, rows, width, arithmetic, r);
        const Ad = A.accessor.data as any;
        for (let k = 0; k < Ad.length; k++) storageOf(sx).encode(Ad, k, Math.floor(r() * 129) - 64);
        // x is read whole (gathered): 400 f64 elements fit the limit.
        const cols = 400;
        const xe = vector(Float64Array.from({ length: cols }, () => Math.floor(r() * 9) - 4), { storage: formats.f64, arithmetic });
        const structure = ellStructure({ rows, cols, width, stride: rows, colIndex: Int32Array.from({ length: rows * width }, (_, q) => (q * 37 + 11) % cols) });
        const e1 = vector(new Float64Array(rows), { storage: formats.f64, arithmetic });
        const e2 = vector(new Float64Array(rows), { storage: formats.f64, arithmetic });
        await ellSpmv({ alpha: 1, A: ellOperand(structure, A), x: xe, beta: 0, y: e1 }, o);
        await ellSpmv({ alpha: 1, A: ellOperand(structure, matrixTwin(A, arithmetic)), x: xe, beta: 0, y: e2 }, o);
        expect(bits(e1.accessor.data as Float64Array)).toEqual(bits(e2.accessor.data as Float64Array));
      });
    }), { numRuns: 10 });
  });

  it('integer outputs over one binding are stored on the device in windows of their span (values and scales windowed too): the CPU bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom('i8' as const, 'i16' as const), fc.constantFrom(0, 1), fc.constantFrom(1, 2, -3), fc.boolean(), fc.integer({ min: 1, max: 2500 }), fc.integer(), async (storage, ai, stride, perElement, n, seed) => {
      const arithmetic = ARITHMETICS[ai]!;
      const r = rng(seed);
      const top = storage === 'i8' ? 127 : 32767;
      const scale = Float64Array.from({ length: perElement ? n : 1 }, () => Math.fround((r() < 0.2 ? -1 : 1) * (0.5 + r()) * 2 ** (Math.floor(r() * 40) - 20)));
      // Ties (k + ½)·s, nudged or not, values beyond the range, ±∞ and NaN (as the one-binding test above).
      const values = Float64Array.from({ length: n }, (_, i) => {
        const s = scale[perElement ? i : 0]!;
        const pick = r();
        if (pick < 0.02) return [NaN, Infinity, -Infinity][i % 3]!;
        if (pick < 0.06) return (i % 2 ? 1 : -1) * (top + 0.5 + r() * 4) * Math.abs(s);
        const k = Math.floor(r() * 2 * top) - top;
        return (k + 0.5) * s + [0, 0, 2 ** -30, -(2 ** -30), 2 ** -45, -(2 ** -45)][Math.floor(r() * 6)]! * Math.abs(s);
      });
      const a = Math.abs(stride);
      const run = async (backend: 'cpu' | 'gpu') => {
        const size = 3 + (n - 1) * a + 3;
        const data = storage === 'i8' ? new Int8Array(size).fill(99) : new Int16Array(size).fill(999);
        const out = range(scaledReducedRowMajor<1>({ size: [n], storage: storageOf(storage), arithmetic, scaleMask: [perElement], scale, stride, offset: stride < 0 ? 3 + (n - 1) * a : 3, data }));
        const x = vector(values, { storage: formats.f64, arithmetic });
        if (backend === 'cpu') waxpby(1, x, 0, x, out, { arithmetic });
        // 4 KiB: with 2500 elements at stride −3 the span takes 7.5 k (i8) to 15 k (i16) bytes, the ff values 40 k, the
        // scales 20 k; 64 words of the span, their values and scales fit it whatever was drawn (i8 at stride 1 in ff:
        // 256 elements, 4 KiB of values less the 512 bytes of slack kept).
        else await underLimit(4096, () => waxpby(1, x, 0, x, out, { backend: 'gpu', arithmetic, strict: true }));
        return bits(data);
      };
      const stores = deviceScaledStoreCount();
      const cpu = await run('cpu'), gpu = await run('gpu');
      expect(deviceScaledStoreCount()).toBe(stores + 1);
      expect(gpu).toEqual(cpu);
    }), { numRuns: 20 });
  });

  it('floating-point outputs over one binding are divided on the device in windows of elements (values, quotients and scales windowed): the CPU bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom('f16' as const, 'bf16' as const, 'f32' as const, 'f64' as const), fc.constantFrom(0, 1), fc.constantFrom(1, 2, -3), fc.boolean(), fc.integer({ min: 1, max: 2500 }), fc.integer(), async (storage, ai, stride, perElement, n, seed) => {
      const arithmetic = ARITHMETICS[ai]!;
      const r = rng(seed);
      const scale = Float64Array.from({ length: perElement ? n : 1 }, () => (r() < 0.2 ? -1 : 1) * (0.5 + r()) * 2 ** (Math.floor(r() * 40) - 20));
      const values = Float64Array.from({ length: n }, (_, i) => (r() < 0.02 ? [NaN, Infinity, -Infinity][i % 3]! : (r() * 2 - 1) * 2 ** (Math.floor(r() * 60) - 30)));
      const c: VectorCase = { storage, n, stride, pad: 3, perElement };
      // 4 KiB: 2500 ff values take 20 k, their scales 20 k; a window of 448 elements fits (values 3.5 k, scales 3.8 k).
      await expectFloatOutputAsCpu(c, arithmetic, bufferFor(c, rng(seed ^ 0x5bd1e995)), scale, values, 4096);
    }), { numRuns: 16 });
  });

  it('GEMV N/T (either layout, sub-ranges, every mask) reads scaled matrices in windows: the unsplit runs\' bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom(...STORAGES), fc.boolean(), fc.constantFrom([true, false], [false, true], [true, true], [false, false]), fc.boolean(), fc.constantFrom(0, 1), fc.constantFrom('N' as const, 'T' as const), fc.integer(), async (storage, rowMajorLayout, mask, sub, ai, trans, seed) => {
      const arithmetic = ARITHMETICS[ai]!;
      const r = rng(seed);
      // 16 × 600 (column-major) or 600 × 16 (row-major, read through its transpose): the long direction is windowed.
      const [m, n] = rowMajorLayout ? [600, 16] : [16, 600];
      const A = scaledMatrix({ storage, rowMajorLayout, mask, sub }, m, n, arithmetic, r);
      const x = vector(Float64Array.from({ length: trans === 'N' ? n : m }, () => Math.floor(r() * 9) - 4), { storage: formats.f64, arithmetic });
      const rows = trans === 'N' ? m : n;
      const run = async (limit: number | undefined) => {
        const y = vector(Float64Array.from({ length: rows }, (_, i) => i), { storage: formats.f64, arithmetic });
        await underLimit(limit, () => gemv({ alpha: 1.5, A, x, beta: 0.25, y, trans }, { backend: 'gpu', arithmetic, strict: true }));
        return bits(y.accessor.data as Float64Array);
      };
      // The limit holds 130 columns (rows of a row-major matrix) of a stride of at most 21 elements (a sub-range's M + 2),
      // plus the 128 elements a window's start may move down to its binding's boundary; the matrix is four times larger.
      // A scale per element (9600 fp64 scales, bound whole) does not fit: a typed error before anything runs.
      const size = storage === 'i8' ? 1 : storage === 'f32' ? 4 : storage === 'f64' ? 8 : 2;
      const limit = Math.max(6144, Math.ceil(((130 * 21 + 128) * size + 256) / 256) * 256); // y (600 f64) fits too
      if (mask[0] && mask[1]) {
        const y = vector(new Float64Array(rows), { storage: formats.f64, arithmetic });
        await expect(underLimit(Math.min(limit, 8192), () => gemv({ alpha: 1.5, A, x, beta: 0.25, y, trans }, { backend: 'gpu', arithmetic, strict: true }))).rejects.toMatchObject({ code: 'BACKEND_LIMIT', parameter: 'maxStorageBufferBindingSize' });
      } else {
        expect(await run(limit)).toEqual(await run(undefined));
      }
    }), { numRuns: 12 });
  });

  it('TRSV reads a scaled matrix over one binding in windows of columns: the blocked solve in one binding, bit for bit', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.constantFrom<StorageName>('f32', 'f64'), fc.boolean(), fc.constantFrom([true, false], [false, true], [false, false]), fc.boolean(), fc.constantFrom(0, 1), fc.constantFrom('N' as const, 'T' as const), fc.integer(), async (storage, rowMajorLayout, mask, sub, ai, trans, seed) => {
      const arithmetic = ARITHMETICS[ai]!;
      const r = rng(seed);
      // TRSV on a 160 × 160 scaled lower triangle (ld 163) under a limit holding 64 of its columns and the block inverses
      // (bound whole: 80 KiB in ff), so f64 and f32 matrices exceed it; against the blocked solve in one binding (the
      // one-dispatch solve sums in another order).
      const k = 160;
      const T = scaledMatrix({ storage, rowMajorLayout, mask, sub }, k, k, arithmetic, r);
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) T.set(i, j, i === j ? 2 ** (i % 3) : exactValue(T, [i, j]) / 2 ** 40);
      for (let i = 0; i < k; i++) for (let e = 1; exactValue(T, [i, i]) === 0 && e < 40; e++) T.set(i, i, 2 ** (i % 3 + e));
      const solve = async (limit: number | undefined) => {
        const b = vector(Float64Array.from({ length: k }, (_, i) => (i % 5) - 2), { storage: formats.f64, arithmetic });
        await underLimit(limit, () => trsv({ A: T, x: b, uplo: 'L', trans }, { backend: 'gpu', arithmetic, strict: true, blockSize: 64 }));
        return bits(b.accessor.data as Float64Array);
      };
      process.env.MODPREC_TRSV_ONE_DISPATCH = '0';
      rereadTuningKnobs();
      try {
        expect(await solve(96 * 1024)).toEqual(await solve(undefined));
      } finally {
        delete process.env.MODPREC_TRSV_ONE_DISPATCH;
        rereadTuningKnobs();
      }
    }), { numRuns: 8 });
  });
});
