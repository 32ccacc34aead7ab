/** The command line: flags parse into options; every mistake is a UsageError (exit 2) before any work. */
import { describe, it, expect } from 'vitest';
import { parseArgs, GPU_ARITHMETICS } from '../../app/cli/parse-args.js';
import { UsageError } from '../../app/cli/usage-error.js';
import { main } from '../../app/cli/main.js';
import { DEFAULT_SIZES, DEFAULT_SEEDS } from '../../app/study/defaults.js';
import { formatNames, findFormat } from '../../src/formats/common/registry.js';

const context = { packageRoot: process.cwd(), gpuAvailable: () => false };
const study = (...argv: string[]) => {
  const r = parseArgs(['study', ...argv], context);
  if (r.command !== 'study') throw new Error('expected a study command');
  return r;
};
const usage = (...argv: string[]) => {
  try {
    parseArgs(argv, context);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no UsageError for ${argv.join(' ')}`);
};

describe('parseArgs', () => {
  it('defaults to the quick study of every registered floating-point configuration on the CPU', () => {
    const { options, json, out } = study();
    expect(options.mode).toBe('quick');
    expect(options.kernels).toEqual(['dot', 'gemv', 'trsv', 'ell-spmv']);
    expect(options.sizes.dot).toEqual(DEFAULT_SIZES.quick.dot);
    expect(options.seeds).toEqual(DEFAULT_SEEDS.quick);
    expect(options.backends).toEqual(['cpu']);
    expect(options.rooflineIntensities.length).toBeGreaterThan(0);
    expect(options.precisionSweep).toBe(true);
    expect(json).toBe(false);
    expect(out.endsWith('report')).toBe(true);
    // Quick: every storage (integer ones scaled) with every distinct CPU arithmetic at least as precise,
    // fp64/fp64 first; multiple-precision (kind mp, RNS) formats belong to the precision sweep, arithmetic-only
    // formats (formats.ff) to the GPU backend's sweep.
    const standard = (n: string) => findFormat(n)?.storage !== undefined && ['number', 'dd'].includes(findFormat(n)?.storage?.kind ?? '');
    const storages = formatNames().filter((n) => findFormat(n)?.storage && standard(n));
    const arithmetics = [...new Set(formatNames().filter(standard).map((n) => findFormat(n)?.arithmetic).filter((a) => a !== undefined))];
    const expected = storages.flatMap((s) => arithmetics.filter((a) => a!.significandBits >= findFormat(s)!.storage!.significandBits).map((a) => `${s}/${a!.name}`));
    expect(options.configurations.map((c) => `${c.storage}/${c.arithmetic}`).sort()).toEqual(expected.sort());
    expect(options.configurations[0]).toEqual({ storage: 'f64', arithmetic: 'f64', backend: 'cpu' });
    for (const c of ['f32/f64', 'f32/f32', 'f16/f32', 'i16/f64', 'i8/f32']) expect(expected).toContain(c);
    // Full: every pair.
    const full = study('--full').options.configurations;
    expect(full.length).toBe(storages.length * arithmetics.length);
  });

  it('reads --full, --kernels, --formats, --sizes, --seeds, --out, --json, with "=" or a separate value', () => {
    const r = study('--full', '--kernels=dot,roofline', '--formats', 'f64,f32,f16/f64', '--sizes', '10,1e3', '--seeds', '3', '--out', 'x', '--json');
    expect(r.options.mode).toBe('full');
    expect(r.options.kernels).toEqual(['dot']);
    expect(r.options.precisionSweep).toBe(false);
    expect(r.options.rooflineIntensities.length).toBeGreaterThan(0);
    expect(r.options.configurations.map((c) => `${c.storage}/${c.arithmetic}`).sort()).toEqual(['f16/f64', 'f32/f32', 'f32/f64', 'f64/f32', 'f64/f64']);
    expect(r.options.sizes.gemv).toEqual([10, 1000]);
    expect(r.options.seeds).toEqual([1, 2, 3]);
    expect(r.json).toBe(true);
    expect(r.out.endsWith('x')).toBe(true);
    expect(study('--seeds', '7,11').options.seeds).toEqual([7, 11]);
  });

  it('answers help for --help, -h, help and no command', () => {
    for (const argv of [['--help'], ['-h'], ['help'], [], ['study', '--help']]) expect(parseArgs(argv, context).command).toBe('help');
  });

  it('rejects unknown commands, flags and values with a message naming them', () => {
    expect(usage('run')).toMatch(/unknown command "run"/);
    expect(usage('study', '--fast')).toMatch(/unknown flag "--fast"/);
    expect(usage('study', 'extra')).toMatch(/unknown argument "extra"/);
    expect(usage('study', '--kernels', 'dot,axpby')).toMatch(/unknown kernel "axpby"/);
    expect(usage('study', '--formats', 'f128')).toMatch(/unknown format "f128"/);
    expect(usage('study', '--formats', 'i8/rns424')).toMatch(/scaled integer storage "i8" is read in fp32, fp64 or double-double arithmetic, not rns424/);
    expect(usage('study', '--backend', 'gpu', '--formats', 'i32/f32')).toMatch(/"i32" is not a storage format of the selected backend/);
    expect(usage('study', '--formats', 'f32/f16')).toMatch(/"f16" has no CPU arithmetic/);
    expect(usage('study', '--formats', 'f16')).toMatch(/no storage\/arithmetic pair/);
    expect(usage('study', '--sizes', '10,-3')).toMatch(/"-3" is not an integer/);
    expect(usage('study', '--sizes', '1.5')).toMatch(/"1.5" is not an integer/);
    expect(usage('study', '--seeds', '0')).toMatch(/"0" is not an integer/);
    expect(usage('study', '--backend', 'tpu')).toMatch(/"tpu" is not one of cpu, gpu, auto/);
    expect(usage('study', '--sizes')).toMatch(/--sizes needs a value/);
    expect(usage('study', '--sizes', '--json')).toMatch(/--sizes needs a value/);
    expect(usage('study', '--out', 'a', '--out', 'b')).toMatch(/--out given twice/);
    expect(usage('study', '--matrices', '/nonexistent/folder')).toMatch(/is not a folder/);
  });

  it('rejects impossible combinations', () => {
    expect(usage('study', '--quick', '--full')).toMatch(/exclude each other/);
    expect(usage('study', '--kernels', 'gemv', '--sizes', '100000')).toMatch(/too large for dense GEMV\/TRSV/);
    // fp64 arithmetic on the GPU: WebGPU has no fp64.
    const msg = usage('study', '--backend', 'gpu', '--formats', 'f32/f64');
    expect(msg).toMatch(/f64 arithmetic is not available on the GPU/);
    expect(msg).toContain(GPU_ARITHMETICS.join(', '));
    // float-float is an arithmetic on both backends but a storage on the GPU only: refused as CPU storage.
    expect(usage('study', '--backend', 'cpu', '--formats', 'ff/ff')).toMatch(/"ff" is not a storage format of the selected backend/);
  });

  it('on a machine with a GPU, auto adds GPU configurations with GPU arithmetics only', () => {
    const r = parseArgs(['study', '--formats', 'f64,f32'], { packageRoot: process.cwd(), gpuAvailable: () => true });
    if (r.command !== 'study') throw new Error('expected study');
    expect(r.options.backends).toEqual(['cpu', 'gpu']);
    const gpu = r.options.configurations.filter((c) => c.backend === 'gpu');
    expect(gpu.length).toBeGreaterThan(0);
    for (const c of gpu) expect(GPU_ARITHMETICS).toContain(c.arithmetic);
  });
});

describe('main', () => {
  const capture = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } } };
  };

  it('exits 2 with the message on stderr and writes nothing for a bad flag', async () => {
    const c = capture();
    expect(await main(['study', '--sizes', 'abc'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/^modprec: --sizes: "abc" is not an integer/);
    expect(c.out).toEqual([]);
  });

  it('prints the help with examples and exits 0', async () => {
    const c = capture();
    expect(await main(['--help'], c.io)).toBe(0);
    const text = c.out.join('');
    for (const flag of ['--quick', '--full', '--kernels', '--formats', '--backend', '--sizes', '--seeds', '--out', '--json', '--help']) expect(text).toContain(flag);
    expect(text).toMatch(/Examples:/);
  });
});
