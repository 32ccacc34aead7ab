/**
 * The built-in formats' GPU parts load with the GPU backend (src/formats/gpu-parts.ts), so a CPU-only program does
 * not carry them; a `backend: 'gpu'` call is still checked at once, before anything loads, from the formats' GPU
 * facts (src/formats/common/gpu-facts.ts): the same typed errors, thrown synchronously, as with the parts loaded
 * (test/gpu/format-registry.test.ts checks the facts against the parts). This file never loads the GPU backend.
 */
import { describe, expect, it } from 'vitest';
import { dot, gemv, formats, vector, matrix } from '../../src/index.js';
import { prepareGpuCall } from '../../src/backends/webgpu-bridge/gpu-backend.js';

describe('GPU facts of the built-in formats, before the GPU backend loads', () => {
  it('the built-in formats have no part loaded yet, and nothing here loaded one', () => {
    expect(formats.f32.storage!.gpu).toBeUndefined();
    expect(formats.ff.arithmetic!.gpu).toBeUndefined();
    expect(formats.dd.storage!.gpu).toBeUndefined();
  });

  it('refuses what the GPU cannot run synchronously, naming the parameter, as with the parts loaded', () => {
    const x = vector([1, 2, 3], { storage: formats.f32 });
    const d = vector([1, 2, 3], { storage: formats.dd });
    const i = vector([1, 2, 3], { storage: formats.i8 });
    const r = vector([1, 2, 3], { storage: formats.i32 });
    const refusal = (run: () => unknown): unknown => { try { run(); } catch (e) { return e; } return 'no error'; };
    // f64 arithmetic has no GPU part.
    expect(refusal(() => dot(x, x, { backend: 'gpu', arithmetic: formats.f64 }))).toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' });
    // dd storage reads only into dd arithmetic.
    expect(refusal(() => dot(d, x, { backend: 'gpu', arithmetic: formats.f32 }))).toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' });
    // An unscaled i8 range: the device's i8 is block-scaled.
    expect(refusal(() => dot(i, x, { backend: 'gpu', arithmetic: formats.f32 }))).toMatchObject({ code: 'INVALID_FORMAT', parameter: 'x' });
    // i32 has no GPU part; i8 is read-only on the device (GEMV's y).
    expect(refusal(() => dot(x, r, { backend: 'gpu', arithmetic: formats.ff }))).toMatchObject({ code: 'INVALID_FORMAT', parameter: 'y' });
    const A = matrix(1, 3, (_i, j) => j + 1, { storage: formats.f32 });
    const y = vector([0], { storage: formats.i8 });
    expect(refusal(() => gemv({ alpha: 1, A, x, beta: 0, y, trans: 'N' }, { backend: 'gpu', arithmetic: formats.f32 }))).toMatchObject({ code: 'INVALID_FORMAT', parameter: 'y' });
    expect(formats.f32.storage!.gpu).toBeUndefined();
  });

  it('a call the GPU runs is accepted, with the arithmetic part named by the facts', () => {
    const x = vector([1, 2, 3], { storage: formats.f64 });
    const d = vector([1, 2, 3], { storage: formats.dd });
    expect(prepareGpuCall('dot', [['x', x], ['y', x]], { backend: 'gpu', arithmetic: formats.ff }).gpuArithmetic).toBe('ff');
    expect(prepareGpuCall('dot', [['x', d], ['y', x]], { backend: 'gpu', arithmetic: 'dd' }).gpuArithmetic).toBe('dd');
    expect(prepareGpuCall('dot', [['x', x], ['y', x]], { backend: 'gpu', arithmetic: formats.f32 }).gpuArithmetic).toBe('f32');
    expect(formats.dd.arithmetic!.gpu).toBeUndefined();
  });
});
