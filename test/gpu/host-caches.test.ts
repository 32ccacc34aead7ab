/**
 * The caches that keep a GPU call's host cost low (issue 19, item 5) must never serve stale state: a pass cache's bind
 * groups are found by the identity of the bound buffers and their windows (a destroyed buffer replaced by a new one of
 * the same size, or the same buffer bound at another offset, gets its own group); its uniform upload is skipped only
 * when every word — the sign of a zero included — is the one last uploaded; and the TRSV tuning knobs, read once from
 * the environment, change at the next call after rereadTuningKnobs, rebuilding the walker's cached pass lists.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getProgram, Program, submitPasses, type PassCache } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, readWords } from '../../src/backends/webgpu/runtime.js';
import { rereadTuningKnobs, tuningGeneration, tuningKnob } from '../../src/backends/webgpu/tuning-knobs.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { accurateSum, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';

const KNOBS = ['MODPREC_TEST_KNOB', 'MODPREC_TRSV_SPIN', 'MODPREC_TRSV_WAIT'];

afterEach(() => {
  for (const name of KNOBS) delete process.env[name];
  rereadTuningKnobs();
  vi.restoreAllMocks();
});

/** Words 0 … n − 1 of `seed`·1000 + k as binary32. */
function words(n: number, seed: number): Float32Array {
  return Float32Array.from({ length: n }, (_, k) => seed * 1000 + k);
}

describe('pass caches', () => {
  it('a buffer destroyed and replaced by a new one of the same size, and the same buffer at another offset, get their own bind groups', async () => {
    const rt = await requireRuntime();
    const context = rt.context;
    const program = await getProgram(context, { source: 'function (X) { return X[this.thread.x]; }', args: [['X', 'Array']], components: 1 });
    const n = 64; // 256 bytes: a window at offset 256 is aligned on every adapter
    const out = createWordBuffer(context, n);
    const cache: PassCache = {};
    const copy = async (buffer: ReturnType<typeof createWordBuffer>, offset?: number): Promise<Float32Array> => {
      submitPasses(context, [{ pass: { program, arrays: { X: offset === undefined ? { buffer } : { buffer, offset, size: n * 4 } }, scalars: {}, output: { buffer: out }, threads: n }, cache }]);
      return new Float32Array((await readWords(context, out, n)).buffer.slice(0));
    };
    const a = createWordBuffer(context, n, words(n, 1));
    expect(await copy(a)).toEqual(words(n, 1));
    a.destroy();
    const b = createWordBuffer(context, n, words(n, 2));
    expect(await copy(b)).toEqual(words(n, 2));
    const c = createWordBuffer(context, 2 * n, words(2 * n, 3));
    expect(await copy(c, 0)).toEqual(words(n, 3));
    expect(await copy(c, n * 4)).toEqual(words(2 * n, 3).subarray(n));
    // Back to the first window of c, and to b: groups found again, not confused with each other.
    expect(await copy(c, 0)).toEqual(words(n, 3));
    expect(await copy(b)).toEqual(words(n, 2));
    for (const buffer of [b, c, out]) buffer.destroy();
  });

  it('a plan step used by another program (another layout of uniforms and bindings) starts afresh', async () => {
    const rt = await requireRuntime();
    const context = rt.context;
    const copy = await getProgram(context, { source: 'function (X) { return X[this.thread.x]; }', args: [['X', 'Array']], components: 1 });
    const affine = await getProgram(context, { source: 'function (X, Y, a, b) { return X[this.thread.x] * a + Y[this.thread.x] * b; }', args: [['X', 'Array'], ['Y', 'Array'], ['a', 'Float'], ['b', 'Float']], components: 1 });
    const n = 64;
    const x = createWordBuffer(context, n, words(n, 1));
    const y = createWordBuffer(context, n, words(n, 2));
    const out = createWordBuffer(context, n);
    const cache: PassCache = {};
    const read = async (): Promise<Float32Array> => new Float32Array((await readWords(context, out, n)).buffer.slice(0));
    submitPasses(context, [{ pass: { program: copy, arrays: { X: { buffer: x } }, scalars: {}, output: { buffer: out }, threads: n }, cache }]);
    expect(await read()).toEqual(words(n, 1));
    for (let r = 0; r < 2; r++) {
      submitPasses(context, [{ pass: { program: affine, arrays: { X: { buffer: x }, Y: { buffer: y } }, scalars: { a: 2, b: -1 }, output: { buffer: out }, threads: n }, cache }]);
      expect(await read()).toEqual(words(n, 1).map((v, k) => 2 * v - words(n, 2)[k]!));
      submitPasses(context, [{ pass: { program: copy, arrays: { X: { buffer: y } }, scalars: {}, output: { buffer: out }, threads: n }, cache }]);
      expect(await read()).toEqual(words(n, 2));
    }
    for (const buffer of [x, y, out]) buffer.destroy();
  });

  it('a changed scalar is uploaded, a zero of the other sign too', async () => {
    const rt = await requireRuntime();
    const context = rt.context;
    const program = await getProgram(context, { source: 'function (X, s) { return X[this.thread.x] * s; }', args: [['X', 'Array'], ['s', 'Float']], components: 1 });
    const n = 64;
    const x = createWordBuffer(context, n, words(n, 1));
    const out = createWordBuffer(context, n);
    const cache: PassCache = {};
    const scaled = async (s: number): Promise<Float32Array> => {
      submitPasses(context, [{ pass: { program, arrays: { X: { buffer: x } }, scalars: { s }, output: { buffer: out }, threads: n }, cache }]);
      return new Float32Array((await readWords(context, out, n)).buffer.slice(0));
    };
    for (const s of [2, 2, 3, 0, -0, 0.5]) {
      const got = await scaled(s);
      const want = words(n, 1).map((v) => v * s);
      for (let k = 0; k < n; k++) expect(Object.is(got[k], want[k]), `s = ${Object.is(s, -0) ? '-0' : s}, word ${k}: ${got[k]}`).toBe(true);
    }
    x.destroy();
    out.destroy();
  });
});

describe('repeated kernel calls', () => {
  it('AXPBY on the same arrays takes the α and β of each call (repeated, changed, zeros of either sign)', async () => {
    await requireRuntime();
    const n = 100;
    const xv = randomValues(n, 41).map(Math.fround);
    const yv = randomValues(n, 42).map(Math.fround);
    const x = await toDevice(xv, { format: 'f32' });
    const y = await toDevice(yv, { format: 'f32' });
    const out = await toDevice(new Float64Array(n), { format: 'f32' });
    for (const [alpha, beta] of [[2, 0], [2, 0], [-0, 0], [0, -0], [0.5, -2], [0.5, -2], [3, 1], [3, -1]] as const) {
      await gpuUpdate({ alpha, x, beta, y, out }, { arithmetic: 'ff' });
      const got = await out.toHost();
      for (let k = 0; k < n; k++) {
        // A zero coefficient does not read its vector: its term is absent, not 0·v.
        const want = Math.fround(alpha === 0 ? (beta === 0 ? 0 : beta * yv[k]!) : beta === 0 ? alpha * xv[k]! : alpha * xv[k]! + beta * yv[k]!);
        expect(Object.is(got[k], want) || Math.abs(got[k]! - want) <= 2 ** -23 * Math.abs(want), `α = ${alpha}, β = ${beta}, element ${k}: ${got[k]} vs ${want}`).toBe(true);
      }
    }
    for (const d of [x, y, out]) d.destroy();
  });

  it('a repeated vector update on the same arrays emits no return statement again (its vector probe is kept per plan) and stays right', async () => {
    await requireRuntime();
    const n = 256; // a multiple of four: whole f32 arrays take the vector update
    const xv = randomValues(n, 43).map(Math.fround);
    const yv = randomValues(n, 44).map(Math.fround);
    const x = await toDevice(xv, { format: 'f32' });
    const y = await toDevice(yv, { format: 'f32' });
    const out = await toDevice(new Float64Array(n), { format: 'f32' });
    const emitted = vi.spyOn(out.format, 'emitReturn');
    const calls: number[] = [];
    for (const [alpha, beta] of [[2, 1], [0.5, -2], [-4, 0.25]] as const) { // powers of two: exact products, one rounding (a fused multiply-add gives the same)
      const before = emitted.mock.calls.length;
      await gpuUpdate({ alpha, x, beta, y, out }, { arithmetic: 'f32' });
      calls.push(emitted.mock.calls.length - before);
      const got = await out.toHost();
      for (let k = 0; k < n; k++) expect(got[k], `α = ${alpha}, β = ${beta}, element ${k}`).toBe(Math.fround(Math.fround(alpha * xv[k]!) + Math.fround(beta * yv[k]!)));
    }
    // The first call may build its source and probe; the later ones find both cached.
    expect(calls.slice(1)).toEqual([0, 0]);
    for (const d of [x, y, out]) d.destroy();
  });
});

describe('tuning knobs', () => {
  it('are read once, again after rereadTuningKnobs; anything but decimal digits is the default', () => {
    process.env.MODPREC_TEST_KNOB = '7';
    rereadTuningKnobs();
    const generation = tuningGeneration();
    expect(tuningKnob('MODPREC_TEST_KNOB', 1)).toBe(7);
    process.env.MODPREC_TEST_KNOB = '9';
    expect(tuningKnob('MODPREC_TEST_KNOB', 1)).toBe(7);
    rereadTuningKnobs();
    expect(tuningGeneration()).not.toBe(generation);
    expect(tuningKnob('MODPREC_TEST_KNOB', 1)).toBe(9);
    for (const bad of ['-1', '2.5', 'x', '', ' 3']) {
      process.env.MODPREC_TEST_KNOB = bad;
      rereadTuningKnobs();
      expect(tuningKnob('MODPREC_TEST_KNOB', 1), JSON.stringify(bad)).toBe(1);
    }
    delete process.env.MODPREC_TEST_KNOB;
    rereadTuningKnobs();
    expect(tuningKnob('MODPREC_TEST_KNOB', 4)).toBe(4);
  });

  it('a re-read TRSV spin and wait reach the next solve on the same matrix and x, whose pass list was cached', async () => {
    await requireRuntime();
    const n = 200;
    const a = randomValues(n * n, 31);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) a[i + j * n] = Math.fround(i === j ? 2 + Math.abs(a[i + j * n]!) : i > j ? a[i + j * n]! / n : 0);
    const A = deviceMatrix(await toDevice(a, { format: 'f32' }), n, n);
    const x = await toDevice(randomValues(n, 32), { format: 'f32' });
    const seen: { spin: number; pWait: number }[] = [];
    const encode = Program.prototype.encode;
    vi.spyOn(Program.prototype, 'encode').mockImplementation(function (this: Program, ...args: Parameters<Program['encode']>) {
      const scalars = args[2].scalars;
      if (scalars.spin !== undefined) seen.push({ spin: scalars.spin, pWait: scalars.pWait! });
      return encode.apply(this, args);
    });
    // Two solves cache a pass list for each of the two buffers x alternates between; the third reuses the first one.
    await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
    await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
    process.env.MODPREC_TRSV_SPIN = '0';
    process.env.MODPREC_TRSV_WAIT = '1';
    await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' }); // not re-read yet: the knobs read before
    rereadTuningKnobs();
    const b = await x.toHost();
    await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
    expect(seen.map((s) => [s.spin, s.pWait])).toEqual([[256, 32], [256, 32], [256, 32], [0, 1]]);
    // And that solve is right (the walker alone, polling once).
    const sol = await x.toHost();
    for (let i = 0; i < n; i++) {
      const terms = [-b[i]!];
      for (let j = 0; j <= i; j++) terms.push(a[i + j * n]! * sol[j]!);
      expect(Math.abs(accurateSum(terms)), `row ${i}`).toBeLessThanOrEqual(8 * (n + 8) * opError('f32') * accurateSum(terms.map(Math.abs)));
    }
    A.data.destroy();
    x.destroy();
  });
});
