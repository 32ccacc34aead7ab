/**
 * cpuBackendOf names an unknown kernel, operands that are not an object of ranges, and writes that is not a list:
 * cpuBackendOf('dot', undefined) crashed with a TypeError in Object.values, and an unknown kernel was answered. Valid
 * calls still report what the kernel itself runs (backend 'js' asked for is 'js'; a dd pairwise dot is 'js').
 */
import { describe, expect, it } from 'vitest';
import { ModprecError, cpuBackendOf, formats, vector } from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

describe('cpuBackendOf arguments', () => {
  it('refuses what it does not document, naming it', () => {
    const x = vector([1, 2, 3]);
    for (const bad of [undefined, null, 3, 'x']) expect(errorOf(() => cpuBackendOf('dot', bad as never))).toEqual(['INVALID_OPTION', 'operands']);
    expect(errorOf(() => cpuBackendOf('dot', { x, y: [1, 2, 3] as never }))).toEqual(['INVALID_OPTION', 'operands.y']);
    expect(errorOf(() => cpuBackendOf('gemm' as never, { x }))).toEqual(['INVALID_OPTION', 'kernel']);
    expect(errorOf(() => cpuBackendOf('axpy', { x, y: x }, {}, 'y' as never))).toEqual(['INVALID_OPTION', 'writes']);
    expect(errorOf(() => cpuBackendOf('dot', { x, y: x }, null as never))).toEqual(['INVALID_OPTION', 'options']);
    expect(cpuBackendOf('dot', { x, y: x }, { backend: 'js' }).backend).toBe('js');
    expect(cpuBackendOf('dot', { x, y: x }, { arithmetic: formats.dd, accumulation: 'pairwise' }).backend).toBe('js');
  });
});
