/**
 * Records a before/after comparison of the GPU kernels measured on one device lease: the JSON that
 * `bench/gpu/gpu-h100.ts` wrote for an earlier build and for this one, run back to back in the same device call,
 * plus the cuBLAS/cuSPARSE anchors printed by shared/tools/cuda-anchors.py in that call.
 *
 * Writes bench/results/gpu-before-after.json and the `gpu-before-after` section of docs/performance.md.
 *
 * Run: node dist/bench/gpu/before-after.js --base=BASE.json --head=HEAD.json --anchors=anchors.log --label=7d97142 --device="…"
 */
import { readFileSync } from 'node:fs';
import { markdownTable, writePerformanceSection, writeResults } from '../report.js';

interface Row { kernel: string; size: string; storage: string; arithmetic: string; ms: number; error: number | null }
interface Run { date: string; rows: Row[] }

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

function need(name: string): string {
  const v = arg(name);
  if (!v) throw new Error(`missing --${name}=…`);
  return v;
}

const key = (r: Row): string => `${r.kernel} | ${r.size} | ${r.storage} | ${r.arithmetic}`;

function main(): void {
  const base = JSON.parse(readFileSync(need('base'), 'utf8')) as Run;
  const head = JSON.parse(readFileSync(need('head'), 'utf8')) as Run;
  const anchors = readFileSync(need('anchors'), 'utf8').split('\n').filter((l) => /ms/.test(l)).map((l) => l.trim());
  const label = arg('label') ?? 'base';
  const device = arg('device') ?? 'the lent GPU';
  const byKey = new Map(base.rows.map((r) => [key(r), r]));
  // Only the default variants (no "split variant" rows): those are what users get.
  const pairs = head.rows.filter((r) => byKey.has(key(r)) && !/target|threads|bs=/.test(r.kernel)).map((h) => ({ head: h, base: byKey.get(key(h))! }));
  const rows = pairs.map(({ head: h, base: b }) => ({
    kernel: h.kernel, size: h.size, storage: h.storage, arithmetic: h.arithmetic,
    baseMs: b.ms, headMs: h.ms, ratio: h.ms / b.ms, baseError: b.error, headError: h.error,
  }));
  writeResults('gpu-before-after', { date: head.date, device, base: label, rows, anchors });
  const fmt = (e: number | null): string => (e === null ? '—' : e.toExponential(1));
  const table = markdownTable(
    ['kernel', 'size', 'storage', 'arith', `${label} (ms)`, 'this build (ms)', 'time ratio', `${label} error`, 'this build error'],
    rows.map((r) => [r.kernel, r.size, r.storage, r.arithmetic, r.baseMs.toFixed(4), r.headMs.toFixed(4), r.ratio.toFixed(3), fmt(r.baseError), fmt(r.headError)]),
  );
  writePerformanceSection('gpu-before-after', `## GPU kernels before and after the accessor-layer work, one lease — ${head.date}

${device}. \`bench/gpu/gpu-h100.ts\` of this build and of \`${label}\` run back to back in one device call, then
shared/tools/cuda-anchors.py in the same call; recorded by \`bench/gpu/before-after.ts\`. A time ratio above 1 means
this build is slower. The errors are each run's own accuracy check against a compensated double-precision reference.
Rows under ~0.06 ms (the small SuiteSparse matrices) are dominated by the host's time to issue a call (0.03–0.07 ms,
noted per row in the main table) and move both ways between runs; the large kernels are the device-bound ones.

${table}

cuBLAS / cuSPARSE in the same call:

${anchors.map((a) => `- ${a}`).join('\n')}`);
}

main();
