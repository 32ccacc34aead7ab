/**
 * Compile cost of the dd DOT and GEMV N kernels per arithmetic (issue 18): the time of a first call (the shader
 * compiles: llvmpipe in CI) minus a second call of the same kernel, for the default dd arithmetic (DOT's dotVariant,
 * GEMV's gemvVariant) and the windowed multiply-adds of 1, 2, 4 or 8 terms a window; and of dd AXPY (`--kernel=axpy`,
 * y := 2·x + y: a shader of the register's functions only, which shows what dd's shared WGSL library costs every dd
 * shader). The WGSL of the programs the call compiled is counted too (characters, all and the largest). One case a process, so
 * that no program is shared between cases; run it with Mesa's shader cache off (`MESA_SHADER_CACHE_DISABLE=true`),
 * else a second run reads the compiled shader back.
 *
 * Run: npx tsc -p tsconfig.json && MESA_SHADER_CACHE_DISABLE=true node dist/bench/gpu/dd-window-compile.js
 *   --kernel=dot|gemv|axpy --arithmetic=default|window<K>|window<K>-per-term [--storage=dd|f64] [--shape=default|pair|four|eight]
 * (window<K>: ddGpuArithmeticWindowOf(K), its slow path one loop a window; -per-term: one slow call a term)
 * (DOT's `--shape=pair`: two terms a step into one accumulator, as test/gpu/dd-window-dot.test.ts; `four`, `eight`:
 * four or eight; default: DOT's default step, 8 terms into 2 accumulators). Prints one JSON line: wall and CPU
 * seconds of the compile (the CPU time is the compile's own cost where other processes share the cores).
 */
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { gpuUnavailableReason } from '../../src/backends/webgpu/backend.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { compiledPrograms } from '../../src/backends/webgpu/program.js';
import { ddGpuArithmeticWindowOf } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { rand32 } from './bench-data.js';

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

async function main(): Promise<void> {
  const kernel = arg('kernel', 'dot');
  const which = arg('arithmetic', 'default');
  const storage = arg('storage', 'dd') as 'dd' | 'f64';
  const shape = arg('shape', 'default');
  const parsed = /^window([1-8])(-per-term)?$/.exec(which);
  if (which !== 'default' && !parsed) throw new Error(`--arithmetic: default, window1 … window8 or window1-per-term … window8-per-term, not ${which}`);
  const part = parsed ? ddGpuArithmeticWindowOf(Number(parsed[1]), !parsed[2]) : undefined;
  const arithmetic = part ? { name: part.name, arithmetic: { gpu: part } } : ('dd' as const);
  const rt = await gpuRuntime();
  if (!rt) throw new Error(`no GPU: ${gpuUnavailableReason()}`);
  // Small sizes: the run itself is milliseconds; the first call's excess is the compile.
  const n = kernel === 'gemv' ? 64 : 4096;
  // toDevice converts doubles into the storage format (dd: lo = 0); the compile does not depend on the values.
  const words = (len: number, seed: number): Float64Array => Float64Array.from(rand32(len, seed));
  let call: () => Promise<unknown>;
  if (kernel === 'dot') {
    const x = await toDevice(words(n, 1), { format: storage, strict: true });
    const y = await toDevice(words(n, 2), { format: storage, strict: true });
    // pair: 2 terms a step, one accumulator (the windowed DOT tests); four / eight: 4 or 8 into one accumulator.
    const shapes = { pair: { groupWidth: 2, groups: 1, chains: 1 }, four: { groupWidth: 4, groups: 1, chains: 1 }, eight: { groupWidth: 4, groups: 2, chains: 1 } } as const;
    const dotShape = shape in shapes ? shapes[shape as keyof typeof shapes] : {};
    call = () => gpuDot(x, y, { arithmetic, strict: true, ...dotShape });
  } else if (kernel === 'gemv') {
    const A = deviceMatrix(await toDevice(words(n * n, 3), { format: storage, strict: true }), n, n);
    const x = await toDevice(words(n, 4), { format: storage, strict: true });
    const y = await toDevice(new Float64Array(n), { format: 'dd', strict: true });
    call = () => gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic, strict: true });
  } else if (kernel === 'axpy') {
    const x = await toDevice(words(n, 5), { format: storage, strict: true });
    const y = await toDevice(words(n, 6), { format: storage, strict: true });
    call = () => gpuUpdate({ alpha: 2, x, beta: 1, y, out: y }, { arithmetic, strict: true });
  } else {
    throw new Error(`--kernel: dot, gemv or axpy, not ${kernel}`);
  }
  // Wall time and the process's CPU time (all threads: the compile's own cost where other processes share the cores).
  const timed = async (): Promise<{ ms: number; cpuMs: number }> => {
    const t = performance.now();
    const c = process.cpuUsage();
    await call();
    await rt.context.device.queue.onSubmittedWorkDone();
    const used = process.cpuUsage(c);
    return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
  };
  const first = await timed();
  const second = await timed();
  const s = (ms: number): number => Number((ms / 1000).toFixed(1));
  // The WGSL of every program compiled in this process (the runtime's probe and conversions included: a few hundred characters).
  const sizes = (await compiledPrograms()).map((p) => p.wgsl.length);
  const wgsl = { programs: sizes.length, chars: sizes.reduce((a, b) => a + b, 0), largestChars: Math.max(0, ...sizes) };
  console.log(JSON.stringify({ kernel, storage, shape, arithmetic: which, n, firstMs: Math.round(first.ms), secondMs: Math.round(second.ms), compileS: s(first.ms - second.ms), compileCpuS: s(first.cpuMs - second.cpuMs), wgsl }));
  process.exit(0);
}

void main();
