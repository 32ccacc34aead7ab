/**
 * One format registry (issue 14, item 1): the built-in formats carry their GPU parts on the format objects, as a
 * user's format does (given to them when the GPU backend loads; their facts, checked here, are known before); the resident API's names (`gpuFormat`, `GPU_FORMATS`, `gpuArithmetic`) are lookups over the
 * registry; a built-in part stores exactly what the CPU storage of the same format stores; and the GPU runs an
 * arithmetic by its object's GPU part — a user's arithmetic with one runs, one without is a typed error naming
 * `options.arithmetic` and the missing part.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  dot, gemv, vector, matrix, formats, findFormat, registerFormat, f32Arithmetic, ModprecError, type ArithmeticFormat,
} from '../../src/index.js';
import { GPU_FORMATS, gpuFormat, type GpuFormatName } from '../../src/backends/webgpu/formats.js';
import { gpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import {
  BUILTIN_ARITHMETIC_GPU_FACTS, BUILTIN_STORAGE_GPU_FACTS, arithmeticGpuFacts, storageGpuFacts,
} from '../../src/formats/common/gpu-facts.js';
import { toDevice, gpuDot } from '../../src/backends/webgpu/index.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

/** The error `run` throws (synchronously or by rejecting). */
async function errorOf(run: () => unknown): Promise<unknown> {
  try { await run(); } catch (e) { return e; }
  return undefined;
}

describe('the format registry holds the GPU parts', () => {
  it('built-in storages and arithmetics carry their parts; the resident names look them up', () => {
    for (const name of ['f64', 'f32', 'f16', 'bf16', 'i8', 'i16'] as const) {
      const part = findFormat(name)!.storage!.gpu;
      expect(part, name).toBeDefined();
      expect(GPU_FORMATS[name], name).toBe(part);
      expect(gpuFormat(name), name).toBe(part);
    }
    // ff is an arithmetic only on the CPU: its device words are the arithmetic part's word layout.
    expect(GPU_FORMATS.ff).toBe(formats.ff.arithmetic!.gpu!.words);
    expect(gpuArithmetic('f32')).toBe(formats.f32.arithmetic!.gpu);
    expect(gpuArithmetic('ff')).toBe(formats.ff.arithmetic!.gpu);
    for (const name of ['f64', 'rns424']) expect(findFormat(name)?.arithmetic?.gpu, name).toBeUndefined();
    // Double-double carries both: its storage part (four words per pair) and its arithmetic part (dd-gpu-wgsl.ts).
    expect(GPU_FORMATS.dd).toBe(formats.dd.storage!.gpu);
    // dd-split: the bytes of its hi array, then of its lo array (dd-split-gpu-words.ts).
    expect(GPU_FORMATS['dd-split']).toBe(formats.ddSplit.storage!.gpu);
    expect(gpuFormat('dd-split')).toBe(formats.ddSplit.storage!.gpu);
    expect(gpuArithmetic('dd')).toBe(formats.dd.arithmetic!.gpu);
    const e = (() => { try { gpuFormat('i32', 'options.format'); } catch (err) { return err; } })() as ModprecError;
    expect(e).toBeInstanceOf(ModprecError);
    expect([e.code, e.parameter]).toEqual(['INVALID_FORMAT', 'options.format']);
  });

  it("a built-in format's GPU facts (what the CPU checks a call against before the parts load) are its part's", () => {
    // src/formats/common/gpu-facts.ts states them without importing the parts (the parts load with the GPU backend).
    const arithmetics = [formats.f32, formats.ff, formats.dd].map((f) => f.arithmetic as ArithmeticFormat);
    for (const [name, facts] of Object.entries(BUILTIN_STORAGE_GPU_FACTS)) {
      const st = findFormat(name)!.storage!;
      const part = st.gpu!;
      expect(storageGpuFacts(st), name).toBe(facts);
      expect([facts.name, facts.scaled, facts.writable], name).toEqual([part.name, part.scaled, part.writable]);
      // The read check refuses exactly where the part's read template refuses, with the same error.
      for (const ar of arithmetics) {
        const viaFacts = (() => { try { facts.checkRead(ar.gpu!); } catch (e) { return e; } })();
        const viaPart = (() => { try { part.emitRead('a', '0', 'r', ar.gpu!); } catch (e) { return e; } })();
        expect(viaFacts, `${name} into ${ar.name}`).toEqual(viaPart);
      }
    }
    expect(storageGpuFacts(findFormat('dd')!.storage!)!.checkRead).toBeTypeOf('function');
    expect(() => BUILTIN_STORAGE_GPU_FACTS.dd.checkRead(formats.f32.arithmetic!.gpu!)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' }));
    for (const [name, facts] of Object.entries(BUILTIN_ARITHMETIC_GPU_FACTS)) {
      const ar = findFormat(name)!.arithmetic!;
      const part = ar.gpu!;
      expect(arithmeticGpuFacts(ar), name).toBe(facts);
      expect(facts, name).toEqual({ name: part.name, readKinds: part.readKinds, divisionError: part.divisionError, ...(part.valueBits === undefined ? {} : { valueBits: part.valueBits }) });
    }
    // Formats without a part have no facts; a user's part is its own facts.
    for (const name of ['i32', 'rns424']) expect(storageGpuFacts(findFormat(name)!.storage!), name).toBeUndefined();
    expect(arithmeticGpuFacts(formats.f64.arithmetic as ArithmeticFormat)).toBeUndefined();
    const user = { ...f32Arithmetic, name: 'f32-user', gpu: formats.f32.arithmetic!.gpu! };
    expect(arithmeticGpuFacts(user)).toBe(user.gpu);
  });

  it("a built-in part's words hold exactly the value the CPU storage of the same format holds", () => {
    const special = fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 2 ** -149, -(2 ** -24), 65504, 65520, 2 ** -1074, 3.4028235677973366e38);
    for (const name of ['f64', 'f32', 'f16', 'bf16'] as const satisfies readonly GpuFormatName[]) {
      const cpu = findFormat(name)!.storage!;
      const gpu = GPU_FORMATS[name];
      fc.assert(fc.property(fc.array(fc.oneof(fc.double(), special), { minLength: 1, maxLength: 9 }), (values) => {
        const data = cpu.allocate(values.length);
        values.forEach((v, k) => cpu.encode(data, k, v));
        const stored = Float64Array.from(values, (_, k) => cpu.decode(data, k) as number);
        const onDevice = gpu.decode(gpu.encode(values, 'x', 1), values.length, 1);
        stored.forEach((v, k) => expect(Object.is(onDevice[k], v), `${name}: ${values[k]} → ${onDevice[k]} (CPU ${v})`).toBe(true));
      }), { numRuns: 300 });
    }
  });
});

describe('the GPU picks the arithmetic by its GPU part', () => {
  // CPU-valid arithmetics: binary32 under another name, with formats.f32's GPU part and without one.
  const withPart = registerFormat({ name: 'user-f32-gpu', arithmetic: { ...f32Arithmetic, name: 'user-f32-gpu' } as ArithmeticFormat<number> });
  const withoutPart = registerFormat({ name: 'user-f32-cpu', arithmetic: { ...f32Arithmetic, name: 'user-f32-cpu', gpu: undefined } as ArithmeticFormat<number> });
  const n = 777;
  const x = vector(randomValues(n, 31), { storage: formats.f32 }), y = vector(randomValues(n, 32), { storage: formats.f32 });

  it("a user's arithmetic carrying a GPU part runs on the GPU as that part", async () => {
    await requireRuntime();
    const mine = await dot(x, y, { backend: 'gpu', arithmetic: withPart });
    const builtin = await dot(x, y, { backend: 'gpu', arithmetic: formats.f32 });
    expect([mine.backend, mine.arithmetic]).toEqual(['gpu', 'f32']);
    // The same part compiles the same program: the same bits.
    expect(Object.is(mine.value, builtin.value)).toBe(true);
  });

  it("a user's arithmetic without a GPU part is a typed error naming options.arithmetic and the missing part, before anything runs", async () => {
    await requireRuntime();
    // It is a valid arithmetic on the CPU (binary32 under another name; a user's format runs on the generated
    // JavaScript, so the built-in f32 is compared there, not in WebAssembly's lane order).
    expect(dot(x, y, { arithmetic: withoutPart })).toBe(dot(x, y, { arithmetic: formats.f32, backend: 'js' }));
    const A = matrix(3, 3, (i, j) => i + j, { storage: formats.f32 });
    const yv = vector([Number.NaN, 1, 2], { storage: formats.f32 });
    const dx = await toDevice(randomValues(8, 33));
    const runs: [string, () => unknown][] = [
      ['dot', () => dot(x, y, { backend: 'gpu', arithmetic: withoutPart })],
      ['dot (the arithmetic object itself)', () => dot(x, y, { backend: 'gpu', arithmetic: withoutPart.arithmetic })],
      ['gemv', () => gemv({ alpha: 1, A, x: vector(3, { storage: formats.f32 }), beta: 0, y: yv }, { backend: 'gpu', arithmetic: withoutPart })],
      ['gpuDot', () => gpuDot(dx, dx, { arithmetic: withoutPart })],
      ['gpuDot by name', () => gpuDot(dx, dx, { arithmetic: 'user-f32-cpu' as never })],
    ];
    for (const [what, run] of runs) {
      const e = await errorOf(run) as ModprecError;
      expect(e, what).toBeInstanceOf(ModprecError);
      expect([e.code, e.parameter], what).toEqual(['INVALID_OPTION', 'options.arithmetic']);
      expect(e.message, what).toMatch(/GPU part/);
    }
    // Nothing was written: y keeps its NaN.
    expect(Number.isNaN(yv.get(0))).toBe(true);
  });
});
