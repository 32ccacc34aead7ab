import { it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { hostileValues, outcomeOf } from './support/hostile-sweep.js';
import * as m from '../../src/index.js';
it('gpu entry', async () => {
  const t0 = Date.now();
  const gpu = await import('../../src/backends/webgpu/index.js');
  const out: string[] = [];
  for (const [name, value] of Object.entries(gpu)) {
    if (typeof value !== 'function' || ['requireGpu', 'gpuDevice', 'gpuRuntime', 'releaseGpu', 'releaseGpuWhenIdle', 'gpuUnavailableReason'].includes(name)) continue;
    const construct = /^class\b/.test(Function.prototype.toString.call(value));
    for (const [label, make] of hostileValues()) {
      for (let at = 0; at < Math.max(1, value.length); at++) {
        const args: unknown[] = Array.from({ length: at + 1 }, () => undefined); args[at] = make();
        let sync = false;
        const o = await outcomeOf(() => { try { return construct ? new (value as any)(...args) : (value as any)(...args); } catch (e) { sync = true; throw e; } });
        if (o.kind === 'threw' && !o.typed) out.push(`${name} arg ${at}=${label}: ${o.description}`);
        else if (o.kind === 'threw' && sync && Function.prototype.toString.call(value).startsWith('async')) out.push(`SYNC ${name}`);
      }
    }
    out.push(`.. ${name} ${Date.now() - t0}ms`);
  }
  // kernels asked for the GPU with bad operands: a rejection or a synchronous throw?
  for (const [name, call] of [
    ['dot', () => m.dot(undefined as never, m.vector(2), { backend: 'gpu' })],
    ['dot bad option', () => m.dot(m.vector(2), m.vector(2), { backend: 'gpu', arithmetic: Symbol() as never })],
    ['gemv', () => m.gemv(null as never, { backend: 'gpu' })],
    ['cg', () => m.cg(null as never, [1], { backend: 'gpu' })],
  ] as const) {
    let how = 'returned';
    try { const r = (call as () => unknown)(); if (r instanceof Promise) { try { await r; how = 'resolved'; } catch (e) { how = `rejected ${(e as ModprecError).code}`; } } } catch (e) { how = `SYNC throw ${(e as ModprecError).code}`; }
    out.push(`${name}: ${how}`);
  }
  console.log(out.join('\n'));
});
