/**
 * The capability table in docs/gpu.md is the one generated from the registry and the backends (run with
 * UPDATE_CAPABILITIES=1 to rewrite it), and the backends behave as it says: a "yes" runs, a "no" is a typed error.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { capabilityTable } from '../../src/backends/capabilities.js';
import { dot, vector, formats, findFormat, ModprecError, range, scaledReducedRowMajor } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const docs = fileURLToPath(new URL('../../docs/gpu.md', import.meta.url));
const START = '<!-- capability-table:start (generated: src/backends/capabilities.ts) -->';
const END = '<!-- capability-table:end -->';

describe('capability table', () => {
  it('docs/gpu.md holds the generated table', () => {
    const text = readFileSync(docs, 'utf8');
    const table = capabilityTable();
    if (process.env.UPDATE_CAPABILITIES === '1') {
      const a = text.indexOf(START), b = text.indexOf(END);
      writeFileSync(docs, `${text.slice(0, a + START.length)}\n${table}\n${text.slice(b)}`);
      return;
    }
    const a = text.indexOf(START), b = text.indexOf(END);
    expect(a, 'markers missing in docs/gpu.md').toBeGreaterThan(0);
    expect(text.slice(a + START.length, b).trim()).toBe(table);
  });

  it('a storage marked "no" on the GPU is a typed error naming the operand, before anything runs', () => {
    for (const line of capabilityTable().split('\n\n')[0]!.split('\n')) {
      const m = /^\| (\S+) \| yes \| no \|/.exec(line);
      if (!m) continue;
      const f = findFormat(m[1]!)!;
      let error: unknown;
      try {
        dot(vector(2, { storage: f, arithmetic: formats.f32 } as never), vector([1, 1], { storage: formats.f32 }), { backend: 'gpu' });
      } catch (e) { error = e; }
      expect(error, m[1]).toBeInstanceOf(ModprecError);
      expect((error as ModprecError).parameter, m[1]).toBe('x');
    }
  });

  it('scaled storage: a "yes" runs on the device, a "no" (where the CPU takes it) is a typed error naming the operand', async () => {
    await requireRuntime();
    for (const line of capabilityTable().split('\n\n')[0]!.split('\n')) {
      const m = /^\| (\S+) \| [^|]+ \| [^|]+ \| yes \| (yes|no) \|/.exec(line);
      if (!m) continue;
      const x = range(scaledReducedRowMajor<1>({ size: [2], storage: findFormat(m[1]!)!.storage!, arithmetic: formats.f32, scaleMask: [true], scale: new Float64Array([0.5, 2]) }));
      x.set(0, 3);
      x.set(1, -4);
      const y = vector([1, 1], { storage: formats.f32 });
      if (m[2] === 'yes') {
        const r = await dot(x, y, { backend: 'gpu', strict: true, arithmetic: formats.f32 });
        expect([r.backend, r.value], m[1]).toEqual(['gpu', -1]);
      } else {
        let error: unknown;
        try { await dot(x, y, { backend: 'gpu', arithmetic: formats.f32 }); } catch (e) { error = e; }
        expect((error as ModprecError).parameter, m[1]).toBe('x');
      }
    }
  });
});
