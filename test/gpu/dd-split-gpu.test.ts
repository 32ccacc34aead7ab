/**
 * dd-split storage on the device (llvmpipe). Its device words are the bytes of its hi array, then (from a 256-byte
 * boundary) of its lo array: uploads and read-backs copy them exactly, views included. Every kernel that takes dd
 * storage takes dd-split, as input and output, and gives the pairs interleaved dd storage gives, bit for bit — packed,
 * strided and negative-stride vectors, row-major sub-range matrices — while the span elements outside an output view
 * (NaN sentinels with distinct payloads) keep their bits. Inputs are read and outputs written in the two blocks in
 * place: the copy passes (dd-split-device.ts) are counted, none but for TRSV's view x (three: interleave, and two back).
 * Other arithmetics are refused as for dd, and a lowered binding limit gives the outcome dd gives. (Exact oracle and a-priori bound: test-matrix.test.ts's dd-split rows.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  asum, axpy, colMajor, csrToEll, dot, ellSpmv, ellWithStorage, formats, gemv, laplacianCsr, nrm2, range, rowMajor, scal, span, trsv, waxpby, type Range,
} from '../../src/index.js';
import { deviceView, deviceZeros, setBindingLimitForTests, spanToRange, toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { ddSplitLoWord } from '../../src/formats/dd/dd-split-gpu-words.js';
import { ddSplitCopyPassCount } from '../../src/backends/webgpu/dd-split-device.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

type Pair = { hi: number; lo: number };
type Layout = 'packed' | 'strided' | 'reversed';

/** Genuine pairs (lo below half an ulp of hi) from a seed. */
function pairs(n: number, seed: number, scale = 1): Pair[] {
  const hi = randomValues(n, seed, scale), lo = randomValues(n, seed + 100);
  return Array.from({ length: n }, (_, k) => ({ hi: hi[k]!, lo: hi[k]! * lo[k]! * 2 ** -54 }));
}

/** Bits of a double as two words (NaN payloads kept). */
const bits = (v: number): string => {
  const d = new DataView(new ArrayBuffer(8));
  d.setFloat64(0, v);
  return d.getBigUint64(0).toString(16);
};

/** The NaN sentinel of storage element e (a distinct payload each). */
const sentinel = (e: number, half: 0 | 1): number => new Float64Array(new BigUint64Array([0x7ff0000000000000n | BigInt(2 * e + half + 1)]).buffer)[0]!;

/** Every element of a range's storage holds a sentinel pair first; then the view's elements get `ps`. */
function fill(r: Range<any, any>, ps: Pair[], at: (k: number) => number[]): Range<any, any> {
  const a = r.accessor;
  if (a.data instanceof DdSplitArray) a.data.hi.forEach((_, e) => { a.data.hi[e] = sentinel(e, 0); a.data.lo[e] = sentinel(e, 1); });
  else (a.data as Float64Array).forEach((_, w) => { (a.data as Float64Array)[w] = sentinel(w >> 1, (w & 1) as 0 | 1); });
  ps.forEach((p, k) => a.storage.encode(a.data as never, a.linearIndex(at(k)), p as never));
  return r;
}

const storageOf = (name: 'dd' | 'dd-split') => (name === 'dd' ? formats.dd : formats.ddSplit);

function vectorIn(name: 'dd' | 'dd-split', layout: Layout, ps: Pair[]): Range<1, any> {
  const storage = storageOf(name), n = ps.length;
  const r = layout === 'packed' ? range(rowMajor<1>({ size: [n], storage, arithmetic: formats.dd }))
    : layout === 'strided' ? range(rowMajor<1>({ size: [n], stride: 3, offset: 2, storage, arithmetic: formats.dd }))
    : range(colMajor<1>({ size: [n], stride: -2, storage, arithmetic: formats.dd }));
  return fill(r, ps, (k) => [k]) as Range<1, any>;
}

/** An m×n matrix: column-major, or a row-major sub-range of a larger matrix. */
function matrixIn(name: 'dd' | 'dd-split', layout: Layout, m: number, n: number, f: (i: number, j: number) => Pair): Range<2, any> {
  const storage = storageOf(name);
  const A = layout === 'packed' ? range(colMajor<2>({ size: [m, n], storage, arithmetic: formats.dd }))
    : range(rowMajor<2>({ size: [m + 3, n + 2], storage, arithmetic: formats.dd })).sub(span(2, m + 2), span(1, n + 1));
  const ps = Array.from({ length: m * n }, (_, k) => f(k % m, Math.floor(k / m)));
  return fill(A, ps, (k) => [k % m, Math.floor(k / m)]) as Range<2, any>;
}

/** Every storage element of a range as the bits of its pair (the view's and the sentinels'). */
function storageBits(r: Range<any, any>): string[] {
  const a = r.accessor;
  if (a.data instanceof DdSplitArray) return Array.from(a.data.hi, (h, e) => `${bits(h)}/${bits((a.data as DdSplitArray).lo[e]!)}`);
  const d = a.data as Float64Array;
  return Array.from({ length: d.length / 2 }, (_, e) => `${bits(d[2 * e]!)}/${bits(d[2 * e + 1]!)}`);
}

/** The view's pairs (decoded), as bits. */
function viewBits(r: Range<1, any>): string[] {
  const a = r.accessor;
  return Array.from({ length: r.length() }, (_, i) => {
    const p = a.storage.decode(a.data as never, a.linearIndex([i])) as Pair;
    return `${bits(p.hi)}/${bits(p.lo)}`;
  });
}

/** Storage elements of a 1-D range's view. */
const viewElements = (r: Range<1, any>): Set<number> => new Set(Array.from({ length: r.length() }, (_, i) => r.accessor.linearIndex([i])));

const GPU = { backend: 'gpu', arithmetic: formats.dd, strict: true } as const;

afterEach(() => setBindingLimitForTests(undefined));

describe('dd-split storage on the GPU', () => {
  it('goes up as the bytes of hi, then lo (from a 256-byte boundary), and comes back bit for bit through views', async () => {
    await requireRuntime();
    for (const layout of ['packed', 'strided', 'reversed'] as const) {
      const ps = pairs(37, 3);
      const r = vectorIn('dd-split', layout, ps);
      const d = await toDevice(r as never);
      const data = r.accessor.data as DdSplitArray;
      const [lo, hi] = r.accessor.extent();
      const S = hi - lo + 1;
      expect(d.format.name).toBe('dd-split');
      expect(d.spanLength).toBe(S);
      const w = (await d.encoded()).words;
      const lw = ddSplitLoWord(S);
      expect(lw % 64).toBe(0);
      expect(Array.from(new Float64Array(w.slice(0, 2 * S).buffer), bits), layout).toEqual(Array.from(data.hi.subarray(lo, hi + 1), bits));
      expect(Array.from(new Float64Array(w.slice(lw, lw + 2 * S).buffer), bits), layout).toEqual(Array.from(data.lo.subarray(lo, hi + 1), bits));
      // The view reads the range's values (hi + lo rounded) and the span goes back unchanged, sentinels included.
      expect(Array.from(await d.toHost()), layout).toEqual(ps.map((p) => p.hi + p.lo));
      const before = storageBits(r);
      data.hi.fill(0, lo, hi + 1);
      data.lo.fill(0, lo, hi + 1);
      await spanToRange(d, r as never);
      expect(storageBits(r), layout).toEqual(before);
      d.destroy();
    }
    // gpuConvert: a dd-split view to dd is its pairs' bits; dd to dd-split and back keeps them.
    const r = vectorIn('dd-split', 'reversed', pairs(45, 4));
    const sv = await toDevice(r as never);
    const asDd = (await gpuConvert(sv, 'dd')).array;
    const want = vectorIn('dd', 'reversed', pairs(45, 4));
    const wantDd = (await gpuConvert(await toDevice(want as never), 'dd')).array;
    expect(Array.from((await asDd.encoded()).words)).toEqual(Array.from((await wantDd.encoded()).words));
    const back = (await gpuConvert(asDd, 'dd-split')).array;
    expect(back.format.name).toBe('dd-split');
    const bw = (await back.encoded()).words, lw = ddSplitLoWord(45);
    const dw = new Float64Array((await asDd.encoded()).words.slice(0, 180).buffer);
    expect(Array.from(new Float64Array(bw.slice(0, 90).buffer), bits)).toEqual(Array.from({ length: 45 }, (_, k) => bits(dw[2 * k]!)));
    expect(Array.from(new Float64Array(bw.slice(lw, lw + 90).buffer), bits)).toEqual(Array.from({ length: 45 }, (_, k) => bits(dw[2 * k + 1]!)));
    const f = (await gpuConvert(await toDevice([0.1, -3, 2 ** -30], { format: 'f32' }), 'dd-split')).array;
    expect(Array.from(await f.toHost())).toEqual([Math.fround(0.1), -3, 2 ** -30]);
    for (const a of [sv, asDd, wantDd, back, f]) a.destroy();
    const z = await deviceZeros(5, { format: 'dd-split' });
    expect(Array.from(await z.toHost())).toEqual([0, 0, 0, 0, 0]);
    const v = await toDevice([1, -2.5, 1 / 3], { format: 'dd-split' });
    expect(Array.from(await v.toHost())).toEqual([1, -2.5, 1 / 3]);
    z.destroy();
    v.destroy();
  });

  it('every kernel reads dd-split inputs and writes its outputs in place (no copy pass) and gives the pairs dd storage gives, bit for bit, leaving the span outside an output view untouched', async () => {
    await requireRuntime();
    const n = 29, m = 17;
    // One run per storage, the same pairs in the same layouts, everything compared afterwards. dd and dd-split share
    // their programs (compiled once, in the dd run, on llvmpipe); the operands mix packed arrays and negative-stride or
    // row-major sub-range views, so each kernel reads both kinds of binding of the two blocks in one program. The runs
    // go one after the other: the copy-pass count is global.
    const run = async (name: 'dd' | 'dd-split') => {
      const out: Record<string, string[]> = {};
      // Copy passes a call ran (dd-split-device.ts): none for inputs; an output's span is interleaved (one pass) and
      // its view moved back into the blocks (two), three in all for these one-window operands.
      const copies: Record<string, number> = {};
      const counted = async <T>(label: string, f: () => Promise<T>): Promise<T> => {
        const before = ddSplitCopyPassCount();
        const r = await f();
        copies[label] = ddSplitCopyPassCount() - before;
        return r;
      };
      const x = vectorIn(name, 'packed', pairs(n, 1)), y = vectorIn(name, 'reversed', pairs(n, 2, 3));
      out.dot = [bits((await counted('dot', () => dot(x, y, GPU))).value)];
      // DOT's into: element 1 of a stride −2 view, written on the device through the update pass.
      const into = vectorIn(name, 'reversed', pairs(3, 7));
      const intoBefore = storageBits(into);
      await counted('into', () => dot(x, y, { ...GPU, into: into.sub(span(1, 2)) }));
      storageBits(into).forEach((b, e) => { if (e !== into.accessor.linearIndex([1])) expect(b, `${name} into: element ${e}`).toBe(intoBefore[e]); });
      out.into = viewBits(into);
      out.asum = [bits((await counted('asum', () => asum(y, GPU))).value)];
      out.nrm2 = [bits((await counted('nrm2', () => nrm2(x, GPU))).value)];
      const checkOutput = (label: string, r: Range<1, any>, before: string[]): void => {
        const inView = viewElements(r);
        storageBits(r).forEach((b, e) => { if (!inView.has(e)) expect(b, `${name} ${label}: element ${e} outside the view`).toBe(before[e]); });
        out[label] = viewBits(r);
      };
      for (const trans of ['N', 'T'] as const) {
        // N: a row-major sub-range A, x packed, y a view; T: A packed, x a view, y packed.
        const [aLayout, xLayout, yLayout] = trans === 'N' ? ['strided', 'packed', 'reversed'] as const : ['packed', 'reversed', 'packed'] as const;
        const A = matrixIn(name, aLayout, m, n, (i, j) => ({ hi: Math.sin(3 * i + 7 * j + 1), lo: Math.sin(3 * i + 7 * j + 1) * 2 ** -60 * Math.cos(i - j) }));
        const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
        const xv = vectorIn(name, xLayout, pairs(cols, 5)), yv = vectorIn(name, yLayout, pairs(rows, 6));
        const before = storageBits(yv);
        await counted(`gemv ${trans}`, () => gemv({ alpha: 0.75, A, x: xv, beta: -1.25, y: yv, trans }, GPU));
        checkOutput(`gemv ${trans}`, yv, before);
      }
      const E = ellWithStorage(csrToEll(laplacianCsr([4, 5])), { storage: storageOf(name), arithmetic: formats.dd });
      const ex = vectorIn(name, 'reversed', pairs(20, 8)), ey = vectorIn(name, 'packed', pairs(20, 9));
      let before = storageBits(ey);
      await counted('ell', () => ellSpmv({ alpha: 1.5, A: E, x: ex, beta: 0.5, y: ey }, GPU));
      checkOutput('ell', ey, before);
      before = storageBits(y);
      await counted('axpy', () => axpy(-0.375, x, y, GPU));
      checkOutput('axpy', y, before);
      const w = vectorIn(name, 'reversed', pairs(n, 12));
      before = storageBits(w);
      await counted('waxpby', () => waxpby(0.625, x, -1.5, y, w, GPU));
      checkOutput('waxpby', w, before);
      before = storageBits(x);
      await counted('scal', () => scal(-0.3, x, GPU));
      checkOutput('scal', x, before);
      const U = matrixIn(name, 'strided', n, n, (i, j) => (i === j ? { hi: 4 + (i % 3), lo: 2 ** -55 } : i < j ? { hi: Math.sin(i + 2 * j) / n, lo: 0 } : { hi: 0, lo: 0 }));
      const b = vectorIn(name, 'reversed', pairs(n, 14));
      before = storageBits(b);
      await counted('trsv', () => trsv({ A: U, x: b }, GPU));
      checkOutput('trsv', b, before);
      // A packed x (its whole span) is written in its blocks in place; the view above goes through the copy.
      const bp = vectorIn(name, 'packed', pairs(n, 15));
      await counted('trsv packed', () => trsv({ A: U, x: bp }, GPU));
      out['trsv packed'] = viewBits(bp);
      return { out, copies };
    };
    const dd = await run('dd');
    const split = await run('dd-split');
    for (const k of Object.keys(dd.out)) expect(split.out[k], k).toEqual(dd.out[k]);
    // dd storage copies nothing; dd-split reads its inputs and writes its outputs in place (the pair store), but for
    // TRSV's view x (a packed twin and a scatter, which move interleaved pairs).
    for (const k of Object.keys(dd.copies)) expect(dd.copies[k], `dd ${k}`).toBe(0);
    expect(split.copies).toEqual({ dot: 0, into: 0, asum: 0, nrm2: 0, 'gemv N': 0, 'gemv T': 0, ell: 0, axpy: 0, waxpby: 0, scal: 0, trsv: 3, 'trsv packed': 0 });
  });

  it('resident views: DOT, and an update whose output is a view with sentinels around it, as dd views give', async () => {
    await requireRuntime();
    const SIZE = 70, N = 13;
    for (const [off, inc] of [[5, 1], [6, 3], [63, -4]] as const) {
      const results = await Promise.all((['dd', 'dd-split'] as const).map(async (name) => {
        const spanR = vectorIn(name, 'packed', pairs(SIZE, 21));
        const sx = await toDevice(spanR as never);
        const x = deviceView(sx, off, N, inc);
        const y = deviceView(await toDevice(vectorIn(name, 'packed', pairs(SIZE, 22)) as never), SIZE - 1 - off, N, -inc);
        const d = (await gpuDot(x, y, { arithmetic: 'dd', strict: true })).value;
        await gpuUpdate({ alpha: 2, x: y, beta: -0.5, y: x, out: x }, { arithmetic: 'dd', strict: true });
        await spanToRange(sx, spanR as never);
        return { d: bits(d), span: storageBits(spanR) };
      }));
      expect(results[1]!.d).toBe(results[0]!.d);
      expect(results[1]!.span, `${off}, ${inc}`).toEqual(results[0]!.span);
      const view = new Set(Array.from({ length: N }, (_, i) => off + i * inc));
      const initial = storageBits(vectorIn('dd-split', 'packed', pairs(SIZE, 21)));
      results[1]!.span.forEach((b, e) => { if (!view.has(e)) expect(b, `sentinel ${e}`).toBe(initial[e]); });
    }
  });

  it('writes through views of one dd-split span not awaited in between (Promise.all) each land, as with dd', async () => {
    await requireRuntime();
    const SIZE = 48;
    const results = await Promise.all((['dd', 'dd-split'] as const).map(async (name) => {
      const r = vectorIn(name, 'packed', pairs(SIZE, 41));
      const s = await toDevice(r as never);
      const x = await toDevice(vectorIn(name, 'packed', pairs(SIZE / 3, 42)) as never);
      // Three interleaved views (stride 3, offsets 0, 1, 2): every element of the span is written by one of them.
      await Promise.all([0, 1, 2].map((o) => gpuUpdate({ alpha: o + 1, x, beta: -1, y: deviceView(s, o, SIZE / 3, 3), out: deviceView(s, o, SIZE / 3, 3) }, { arithmetic: 'dd', strict: true })));
      await spanToRange(s, r as never);
      s.destroy();
      x.destroy();
      return storageBits(r);
    }));
    expect(results[1]).toEqual(results[0]);
    // Every element changed (each view's write survived the others).
    const initial = storageBits(vectorIn('dd', 'packed', pairs(SIZE, 41)));
    results[1]!.forEach((b, e) => expect(b, `element ${e}`).not.toBe(initial[e]));
  });

  it('is read by the dd arithmetic only: f32 and ff are INVALID_OPTION naming options.arithmetic, as for dd; a destroyed operand is INVALID_STORAGE', async () => {
    await requireRuntime();
    const x = vectorIn('dd-split', 'packed', pairs(4, 1));
    for (const arithmetic of [formats.f32, formats.ff]) {
      await expect(Promise.resolve().then(() => dot(x, x, { backend: 'gpu', arithmetic }))).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' });
      await expect(Promise.resolve().then(() => scal(2, x, { backend: 'gpu', arithmetic }))).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' });
    }
    const d = await toDevice(x as never);
    await expect(gpuDot(d, d, { arithmetic: 'ff' })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' });
    // A destroyed operand is named by the kernel's own check, as for dd.
    const live = await toDevice(x as never);
    d.destroy();
    await expect(gpuDot(live, d, { arithmetic: 'dd' })).rejects.toMatchObject({ code: 'INVALID_STORAGE', parameter: 'y' });
    await expect(gpuUpdate({ alpha: 1, x: live, beta: 0, out: d }, { arithmetic: 'dd' })).rejects.toMatchObject({ code: 'INVALID_STORAGE' });
    live.destroy();
  });

  it('over a lowered binding limit: windows or BACKEND_LIMIT exactly as dd storage', async () => {
    await requireRuntime();
    const n = 3000, m = 40;
    // 16 KiB: 1024 dd pairs per binding (x spans 5999 elements, y 8999).
    setBindingLimitForTests(16384);
    const outcome = async (name: 'dd' | 'dd-split'): Promise<string[]> => {
      const got: string[] = [];
      const x = vectorIn(name, 'reversed', pairs(n, 31)), y = vectorIn(name, 'strided', pairs(n, 32));
      const attempt = async (f: () => Promise<unknown>, out?: Range<1, any>): Promise<void> => {
        try {
          const r = await f();
          got.push(out ? viewBits(out).join() : bits((r as { value: number }).value));
        } catch (e) {
          got.push(`${(e as { code?: string }).code}`);
        }
      };
      const before = ddSplitCopyPassCount();
      await attempt(() => dot(x, y, GPU));
      await attempt(() => asum(x, GPU));
      // The windows of the inputs are windows of their two blocks: no copy pass.
      expect(ddSplitCopyPassCount(), name).toBe(before);
      await attempt(() => axpy(0.5, x, y, GPU), y);
      // A packed output within one binding, windowed with a strided input over it: written in its blocks in place.
      const xs = vectorIn(name, 'strided', pairs(600, 34)), ys = vectorIn(name, 'packed', pairs(600, 35));
      const inPlace = ddSplitCopyPassCount();
      await attempt(() => axpy(-1.5, xs, ys, GPU), ys);
      expect(ddSplitCopyPassCount(), name).toBe(inPlace);
      const A = matrixIn(name, 'strided', m, n, (i, j) => ({ hi: Math.cos(i * j + 1), lo: 0 }));
      const ym = vectorIn(name, 'reversed', pairs(m, 33));
      await attempt(() => gemv({ alpha: 1, A, x, beta: 1, y: ym }, GPU), ym);
      return got;
    };
    const dd = await outcome('dd');
    expect(await outcome('dd-split')).toEqual(dd);
    // Windows ran: DOT and the update (longer than one binding) have values.
    expect(dd[0]).not.toMatch(/^[A-Z_]+$/);
    expect(dd[2]).not.toMatch(/^[A-Z_]+$/);
    expect(dd[3]).not.toMatch(/^[A-Z_]+$/);
  });
});
