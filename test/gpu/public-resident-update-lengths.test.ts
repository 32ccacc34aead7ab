/**
 * gpuUpdate checks every operand it is given, read or not, and names a length mismatch as waxpby names it on the CPU:
 * y against x, then the output against x. Regression: an x given with α = 0 was not checked (gpuUpdate({ alpha: 0,
 * x: a 2-vector, beta: 1, y, out }) with 1-vectors y and out ran, where waxpby(0, x, 1, y, w) is DIMENSION_MISMATCH
 * naming y), an x that was no device array at all ran too, and a mismatch was named x where the CPU names y or w.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, vector, waxpby } from '../../src/index.js';
import { gpuUpdate, toDevice } from '../../src/backends/webgpu/index.js';
import { outcome } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

const f32 = { storage: formats.f32, arithmetic: formats.f32 };
const values = (n: number, at: number): number[] => Array.from({ length: n }, (_, i) => at + i);

describe('gpuUpdate checks its operands as waxpby does', () => {
  it('lengths × zero coefficients: the CPU outcome (its w is out here), the output kept on an error', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, 2), fc.constantFrom(0, 3),
      async (nx, ny, nw, alpha, beta) => {
        const cpu = await outcome(() => waxpby(alpha, vector(values(nx, 1), f32), beta, vector(values(ny, 5), f32), vector(values(nw, 9), f32)));
        const out = await toDevice(values(nw, 9), { format: 'f32' });
        const resident = await outcome(async () => gpuUpdate({ alpha, x: await toDevice(values(nx, 1), { format: 'f32' }), beta, y: await toDevice(values(ny, 5), { format: 'f32' }), out }));
        const kept = resident === 'ran' || JSON.stringify([...(await out.toHost())]) === JSON.stringify(values(nw, 9));
        expect([nx, ny, nw, alpha, beta, resident, kept]).toEqual([nx, ny, nw, alpha, beta, cpu.replace(' w', ' out'), true]);
      }), { numRuns: 30 });
  });

  it('an operand that is no device array is refused whether or not its coefficient is 0', async () => {
    await requireRuntime();
    const out = await toDevice([1, 2], { format: 'f32' });
    for (const alpha of [0, 2]) expect(await outcome(() => gpuUpdate({ alpha, x: [1, 2] as never, beta: 1, y: out, out }))).toBe('INVALID_STORAGE x');
    for (const beta of [0, 2]) expect(await outcome(() => gpuUpdate({ alpha: 1, x: out, beta, y: 'y' as never, out }))).toBe('INVALID_STORAGE y');
  });
});
