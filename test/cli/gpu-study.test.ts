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
import { figureSpecs } from '../../app/report/plot-specs.js';

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

    // The GPU roofline: the streaming read measured in the same run is its ceiling, and each kernel point is a speed row's
    // intensity (FLOPs per byte) and GFLOP/s.
    const copy = r.measurements.filter((m) => m.experiment === 'bandwidth');
    expect(copy.length).toBe(1);
    expect(copy[0]!.backend).toBe('gpu');
    expect(copy[0]!.gbps! > 0 && copy[0]!.gbps === copy[0]!.bytes! / copy[0]!.seconds! / 1e9).toBe(true);
    const roofline = figureSpecs(r.measurements).find((f) => f.id === 'gpu-roofline');
    expect(roofline?.charts.map((c) => c.facet).sort()).toEqual([...new Set(rows.map((m) => m.arithmetic))].map((a) => `${a} arithmetic on the GPU`).sort());
    for (const chart of roofline!.charts) {
      const [line, ...kernels] = chart.series;
      chart.xs.forEach((x, i) => expect(line!.values[i]).toBeCloseTo(copy[0]!.gbps! * x, 9));
      const arithmetic = chart.facet.split(' ')[0];
      for (const k of kernels) {
        const kernel = k.label === 'DOT' ? 'dot' : 'gemv';
        chart.xs.forEach((x, i) => {
          const y = k.values[i];
          if (y === null) return;
          // The point is the fastest speed row of this kernel at its largest size with this intensity.
          const at = rows.filter((m) => m.experiment === 'speed' && m.kernel === kernel && m.arithmetic === arithmetic && m.size === 40 && m.flops! / m.bytes! === x);
          expect(at.length).toBeGreaterThan(0);
          expect(y).toBe(Math.max(...at.map((m) => m.gflops!)));
        });
      }
    }
  });
});
