/**
 * Strided dd outputs on the device (llvmpipe): GEMV's y, the updates' out and TRSV's x as views of a dd span —
 * unit stride at an odd offset, stride 3 and stride −4 — write only the view's elements. The span's other
 * elements hold NaN-sentinel pairs with distinct payloads, checked word for word after every kernel; the view's
 * elements must equal, word for word, what the same kernel writes into a packed dd output.
 */
import { describe, expect, it } from 'vitest';
import { deviceMatrix, deviceView, gpuGemv, gpuTrsv, gpuUpdate, toDevice, type DeviceArray } from '../../src/backends/webgpu/index.js';
import { ddRange } from './dd-ranges.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const SIZE = 64;
const N = 11;

/** Span words: element e holds the pair (NaN with payload e + 1 in hi, e + 1 in lo's low word). */
function sentinelWords(): Uint32Array {
  const w = new Uint32Array(4 * SIZE);
  for (let e = 0; e < SIZE; e++) w.set([e + 1, 0x7ff00000 | (e + 1), e + 1, 0], 4 * e);
  return w;
}

/** Genuine dd pairs (lo a fraction of hi's ulp) from a seed. */
function pairs(n: number, seed: number): { hi: number; lo: number }[] {
  const hi = randomValues(n, seed);
  const lo = randomValues(n, seed + 100);
  return Array.from({ length: n }, (_, k) => ({ hi: hi[k]!, lo: hi[k]! * lo[k]! * 2 ** -54 }));
}

const words = async (a: DeviceArray): Promise<number[]> => Array.from((await a.encoded()).words);

describe('strided dd outputs on the GPU', () => {
  it.each([[5, 1], [6, 3], [51, -4]])('offset %i, stride %i: only the view changes, equal to the packed output word for word', async (off, inc) => {
    await requireRuntime();
    const initial = pairs(N, 1);
    // The span: sentinels everywhere, the view's initial pairs at its elements.
    const spanWords = sentinelWords();
    const init = new Float64Array(2 * N);
    initial.forEach((p, i) => init.set([p.hi, p.lo], 2 * i));
    const initWords = new Uint32Array(init.buffer);
    for (let i = 0; i < N; i++) spanWords.set(initWords.subarray(4 * i, 4 * i + 4), 4 * (off + i * inc));
    const spanPairs = new Float64Array(spanWords.buffer);
    const span = await toDevice(ddRange(Array.from({ length: SIZE }, (_, e) => ({ hi: spanPairs[2 * e]!, lo: spanPairs[2 * e + 1]! }))) as never);
    expect(await words(span)).toEqual(Array.from(spanWords));
    const out = deviceView(span, off, N, inc);
    expect(out.isView).toBe(true);
    const ref = await toDevice(ddRange(initial) as never);
    const X = await toDevice(ddRange(pairs(N, 2)) as never);
    const A = deviceMatrix(await toDevice(ddRange(pairs(N * N, 3)) as never), N, N);
    const tri = Float64Array.from({ length: N * N }, (_, k) => (k % (N + 1) === 0 ? 4 : Math.sin(k) / N));
    const T = deviceMatrix(await toDevice(tri, { format: 'f64' }), N, N);
    const steps: [string, (y: DeviceArray) => Promise<unknown>][] = [
      ['axpby', (y) => gpuUpdate({ alpha: 2, x: X, beta: -0.5, y, out: y }, { arithmetic: 'dd' })],
      ['scal', (y) => gpuUpdate({ alpha: 0.75, x: y, beta: 0, out: y }, { arithmetic: 'dd' })],
      ['gemv N β≠0', (y) => gpuGemv({ A, x: X, y, alpha: 1, beta: 0.5 }, { arithmetic: 'dd' })],
      ['gemv T β=0', (y) => gpuGemv({ A, x: X, y, alpha: -1, beta: 0, trans: 'T' }, { arithmetic: 'dd' })],
      ['trsv L', (y) => gpuTrsv({ A: T, x: y, uplo: 'L' }, { arithmetic: 'dd' })],
      ['trsv U T', (y) => gpuTrsv({ A: T, x: y, uplo: 'U', trans: 'T' }, { arithmetic: 'dd' })],
    ];
    const inView = new Map(Array.from({ length: N }, (_, i) => [off + i * inc, i]));
    for (const [step, run] of steps) {
      await run(out);
      await run(ref);
      const got = await words(span);
      const packed = await words(ref);
      for (let e = 0; e < SIZE; e++) {
        const i = inView.get(e);
        const want = i === undefined ? Array.from(spanWords.subarray(4 * e, 4 * e + 4)) : packed.slice(4 * i, 4 * i + 4);
        expect(got.slice(4 * e, 4 * e + 4), `${step}: element ${e}${i === undefined ? ' (sentinel)' : ` (view element ${i})`}`).toEqual(want);
      }
    }
    for (const a of [span, ref, X, A.data, T.data]) a.destroy();
  });
});
