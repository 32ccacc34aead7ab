/**
 * The GPU backend of the study, end to end through main() on whatever adapter this machine has (a real
 * GPU, or Mesa llvmpipe where there is none): GPU rows exist for every GPU kernel and configuration, ran
 * on the GPU (not the CPU fallback), and their errors respect the fp32-arithmetic bound of their storage.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../app/cli/main.js';
import { openGpu, gpuConfigurations } from '../../app/study/gpu-backend.js';
import type { StudyResult } from '../../app/study/types.js';

const gpu = await openGpu();
const hasGpu = !('reason' in gpu);

describe.skipIf(!hasGpu)('modprec study --backend gpu', () => {
  it('measures DOT and GEMV in every quick GPU configuration within the fp32 bound', async () => {
    const out = mkdtempSync(join(tmpdir(), 'modprec-gpu-'));
    const io = { stdout: { write: () => true }, stderr: { write: () => true } };
    expect(await main(['study', '--backend', 'gpu', '--kernels', 'dot,gemv', '--sizes', '8,40', '--seeds', '2', '--out', out], io)).toBe(0);
    const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as StudyResult;
    expect(r.notes.filter((n) => n.includes('failed'))).toEqual([]);
    const rows = r.measurements.filter((m) => m.backend === 'gpu');
    for (const c of gpuConfigurations('quick')) {
      for (const kernel of ['dot', 'gemv']) {
        const mine = rows.filter((m) => m.kernel === kernel && m.storage === c.storage && m.arithmetic === c.arithmetic);
        expect(mine.filter((m) => m.experiment === 'accuracy').length, `${kernel} ${c.storage}/${c.arithmetic}`).toBe(2 * 2 * 2);
        expect(mine.filter((m) => m.experiment === 'speed').length).toBe(2);
      }
    }
    for (const m of rows.filter((x) => x.experiment === 'accuracy')) {
      expect(Number.isFinite(m.relativeError)).toBe(true);
      if (m.bound !== null) expect(m.relativeError!, `${m.kernel} ${m.storage}/${m.arithmetic}`).toBeLessThanOrEqual(m.bound);
    }
    // Float-float arithmetic over fp32 storage beats fp32 arithmetic on the stored values (DOT, mean over seeds).
    const mean = (s: string, a: string) => {
      const v = rows.filter((m) => m.kernel === 'dot' && m.experiment === 'accuracy' && m.size === 40 && m.storage === s && m.arithmetic === a);
      return v.reduce((t, m) => t + m.arithmeticError!, 0) / v.length;
    };
    expect(mean('f32', 'ff')).toBeLessThan(mean('f32', 'f32'));
  });
});
