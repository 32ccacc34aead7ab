/**
 * The WebGPU backend's answer to "can you run this?" and the shared preparation of a `backend: 'gpu'` call:
 * the arithmetic comes from the CPU's rule (kernels/shared/kernel-options.ts chooseArithmetic: the option, else
 * the most precise arithmetic among the operands), options are validated by the CPU's code first, and whatever
 * the GPU does not implement is a typed error naming the parameter. Where no adapter exists the call runs on the
 * CPU backend, on the same ranges in the same arithmetic (unless `strict`), and the report says so.
 * @module
 */
import type { Range } from '../../core/range.js';
import type { ArithmeticFormat } from '../../formats/common/format.js';
import type { GpuArithmeticName } from '../../formats/common/gpu-part.js';
import { fail, ModprecError } from '../../core/errors.js';
import { chooseArithmetic } from '../../../kernels/shared/kernel-options.js';
import { resolveAccumulation, type Accumulation } from '../../../kernels/shared/accumulation.js';
import type { FormatLike } from '../../formats/common/registry.js';
import { arithmeticGpuFacts, storageGpuFacts } from '../../formats/common/gpu-facts.js';
import { checkGpuOptions, refuse, type KernelBackend, type KernelName, type KernelSignature, type Refusal } from '../backend.js';
import type { GpuRunInfo } from '../webgpu/kernel-common.js';

/**
 * Options that send a kernel to the GPU.
 * @group Kernels
 */
export interface GpuBackendOptions {
  /** Run on WebGPU through gpu.js-compiled kernels (the result is a Promise). */
  backend: 'gpu';
  /**
   * Arithmetic, as on the CPU (default: the most precise arithmetic among the operands). The GPU runs an
   * arithmetic that has a GPU part (`ArithmeticFormat.gpu`: `formats.f32` and `formats.ff`, float-float, about
   * 48 bits), and the RNS formats (`rnsFormat(p)`, 53 to 4096 bits: the RNS device kernels, reading f64, f32, f16,
   * bf16 and RNS storage); any other is a typed error `INVALID_OPTION` naming `options.arithmetic`. Names of
   * registered formats (`'f32'`, `'ff'`, `'rns424'`) are accepted too.
   */
  arithmetic?: FormatLike;
  /** Throw `BACKEND_UNAVAILABLE` instead of running on the CPU backend when no WebGPU adapter exists. */
  strict?: boolean;
  /** Accepted for symmetry with the CPU options; only its default (omitted) runs on the GPU. */
  accumulation?: string | Accumulation;
}

/** Kernels with a WebGPU program. */
const GPU_KERNELS = new Set<KernelName>(['dot', 'gemv', 'trsv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'asum', 'nrm2']);

/** Storages a scaled range may have on the device (range-scale.ts reads them; kept here so no GPU code loads). */
const SCALED_ON_DEVICE = new Set(['i8', 'i16', 'f64', 'f32', 'f16', 'bf16']);

/**
 * Why the GPU cannot run a range's storage, or `undefined`.
 * @param name - the operand's parameter name
 * @param r - the operand
 */
function storageRefusal(name: string, r: Range<any, any>): Refusal | undefined {
  const st = r.accessor.storage;
  if (r.accessor.scale) {
    // A scaled range is read on the device with its own scales (src/backends/webgpu/range-scale.ts).
    if (SCALED_ON_DEVICE.has(st.name)) return undefined;
    return { code: 'INVALID_FORMAT', parameter: name, reason: `is a scaled ${st.name} range; the GPU reads scaled ranges stored in ${[...SCALED_ON_DEVICE].join(', ')}: use backend 'cpu'` };
  }
  const facts = storageGpuFacts(st);
  if (!facts) {
    return { code: 'INVALID_FORMAT', parameter: name, reason: `is stored in ${st.name}, which has no GPU part (StorageFormat.gpu: f64, f32, f16, bf16 and users' formats that supply one have it): use backend 'cpu'` };
  }
  if (facts.scaled) {
    // The device's i8/i16 are block-scaled words; an unscaled integer range is not that format.
    return { code: 'INVALID_FORMAT', parameter: name, reason: `is an unscaled ${st.name} range; the GPU reads ${st.name} only block-scaled (upload it with toDevice(…, { format: '${st.name}' }) and call the gpu* kernels), or use backend 'cpu'` };
  }
  return undefined;
}

/**
 * What a storage part says when asked to read into this arithmetic (dd storage, for one, reads only into dd: any other
 * arithmetic would drop the low half): the kernels' own refusal, asked before anything is uploaded, so a call is
 * refused alike with and without an adapter.
 */
function readRefusal(name: string, r: Range<any, any>, arithmetic: ArithmeticFormat): Refusal | undefined {
  const facts = storageGpuFacts(r.accessor.storage);
  const target = arithmeticGpuFacts(arithmetic);
  if (!facts || !target) return undefined;
  try {
    facts.checkRead(target);
  } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    return { code: e.code === 'INVALID_OPTION' ? 'INVALID_OPTION' : 'INVALID_FORMAT', parameter: e.parameter ?? name, reason: e.message.replace(/^invalid argument: \S+ /, '') };
  }
  return undefined;
}

/**
 * Whether an arithmetic is one of the RNS formats (`rnsFormat(p)`, named `rns<p>`): the GPU runs those with the
 * resident RNS device kernels (rns-dispatch.ts), not through an `ArithmeticFormat.gpu` part.
 */
export function isRnsArithmetic(ar: ArithmeticFormat): boolean {
  return ar.kind === 'mp' && ar.name === `rns${ar.significandBits}`;
}

/** Storages an RNS arithmetic reads on the GPU: numbers (exact doubles) and RNS numbers, unscaled. */
const RNS_READABLE = new Set(['f64', 'f32', 'f16', 'bf16']);

function rnsStorageRefusal(name: string, r: Range<any, any>, arithmetic: ArithmeticFormat): Refusal | undefined {
  const st = r.accessor.storage;
  if (!r.accessor.scale && (RNS_READABLE.has(st.name) || (st.kind === 'mp' && st.name === `rns${st.significandBits}`))) return undefined;
  return { code: 'INVALID_FORMAT', parameter: name, reason: `is a${r.accessor.scale ? ' scaled' : ''} ${st.name} range; ${arithmetic.name} arithmetic on the GPU reads unscaled f64, f32, f16, bf16 and RNS storage: use backend 'cpu'` };
}

/** The WebGPU backend: arithmetics and storages with a GPU part (unscaled ranges), for the kernels with a program. */
export const gpuBackend: KernelBackend = {
  name: 'gpu',
  supports(sig: KernelSignature): Refusal | undefined {
    if (!GPU_KERNELS.has(sig.kernel)) {
      return { code: 'INVALID_OPTION', parameter: 'options.backend', reason: `must be 'cpu' for ${sig.kernel}: it has no WebGPU program yet` };
    }
    if (isRnsArithmetic(sig.arithmetic)) {
      for (const [name, r] of sig.operands) {
        const refusal = rnsStorageRefusal(name, r, sig.arithmetic);
        if (refusal) return refusal;
      }
      return undefined;
    }
    if (!arithmeticGpuFacts(sig.arithmetic)) {
      return {
        code: 'INVALID_OPTION', parameter: 'options.arithmetic',
        reason: `is ${sig.arithmetic.name}, which has no GPU part (ArithmeticFormat.gpu), so it does not run on the GPU: pass arithmetic: formats.ff (float-float, about 48 bits), formats.f32 or an RNS format (rnsFormat(p)), or use backend 'cpu'`,
      };
    }
    for (const [name, r] of sig.operands) {
      const refusal = storageRefusal(name, r) ?? readRefusal(name, r, sig.arithmetic);
      if (refusal) return refusal;
    }
    return undefined;
  },
};

/** The output operand of each kernel (written by the GPU, so its storage must be writable there). */
const OUTPUTS: Readonly<Record<KernelName, string | undefined>> = { dot: undefined, asum: undefined, nrm2: undefined, gemv: 'y', ellSpmv: 'y', axpy: 'y', trsv: 'x', scal: 'x', waxpby: 'w' };

/** A validated GPU call: the arithmetic (a CPU format, for the fallback) and the name of its GPU part. */
export interface GpuCall {
  readonly arithmetic: ArithmeticFormat;
  /**
   * `arithmetic.gpu.name`: the resident kernels look the part up from the registered format of that name (an RNS
   * arithmetic: its own name, `rns<p>`).
   */
  readonly gpuArithmetic: GpuArithmeticName;
  /** Whether the arithmetic is RNS (run by the RNS device kernels, rns-dispatch.ts). */
  readonly rns: boolean;
  readonly strict: boolean;
}

/**
 * Validates a `backend: 'gpu'` call before anything runs or is uploaded, in the CPU kernels' order: the arithmetic by
 * the CPU's rule, accumulation by the CPU's registry, the kernel's values and coefficients (`checkData`); then what
 * the GPU cannot run: an accumulation (refused unless omitted: the GPU sums in its own fixed blocked order), an output
 * its part cannot write, and the signature against {@link gpuBackend}.
 * @param kernel - the kernel
 * @param operands - its operands by parameter name (every one the kernel reads or writes)
 * @param options - the call's options
 * @param defaultOperands - the operands whose arithmetic sets the default (default: all)
 * @param checkData - the kernel's checks of its coefficients and values in the arithmetic (as its CPU path makes them),
 *   run after the options are validated and before anything the GPU cannot run is refused
 * @throws {@link ModprecError} `INVALID_OPTION` / `INVALID_FORMAT` naming the parameter
 * @example
 * ```ts
 * prepareGpuCall('dot', [['x', x], ['y', y]], { backend: 'gpu', arithmetic: formats.ff });
 * ```
 */
export function prepareGpuCall(kernel: KernelName, operands: readonly (readonly [string, Range<any, any>])[], options: GpuBackendOptions, defaultOperands?: readonly Range<any, any>[], checkData?: (arithmetic: ArithmeticFormat) => void): GpuCall {
  const arithmetic = chooseArithmetic(options.arithmetic, defaultOperands ?? operands.map(([, r]) => r));
  if (options.accumulation !== undefined) resolveAccumulation(options.accumulation);
  // The call's values and coefficients are checked as the CPU kernels check them, before anything the GPU cannot
  // run is refused: the same bad input is the same error on every backend.
  checkData?.(arithmetic);
  if (options.accumulation !== undefined) {
    fail('INVALID_OPTION', 'options.accumulation', "must be omitted for backend 'gpu': its reductions sum in one fixed blocked order (within the recursive bound)", options.accumulation);
  }
  checkGpuOptions(options);
  for (const [name, r] of operands) {
    // Outputs must be writable by the GPU kernels: a user format's GPU part may be read-only.
    const part = storageGpuFacts(r.accessor.storage);
    // A scaled output is written by the CPU's scaled store from the arithmetic's values (gpu-dispatch.ts).
    if (part && !part.writable && !r.accessor.scale && OUTPUTS[kernel] === name) fail('INVALID_FORMAT', name, `is stored in ${part.name}, whose GPU part is read-only: the GPU cannot write this output (use backend 'cpu', or give the part an emitReturn and writable: true)`);
  }
  const refusal = gpuBackend.supports({ kernel, operands, arithmetic });
  if (refusal) refuse('gpu', refusal);
  const rns = isRnsArithmetic(arithmetic);
  return { arithmetic, gpuArithmetic: rns ? arithmetic.name : arithmeticGpuFacts(arithmetic)!.name, strict: options.strict === true, rns };
}

/**
 * Runs `onGpu` where a WebGPU adapter exists; else throws `BACKEND_UNAVAILABLE` when strict, or prints the
 * one-line notice and runs `onCpu` — the CPU backend's kernel on the same ranges in `call.arithmetic`.
 * @returns the GPU run's report, or the CPU backend's
 */
export async function onGpuOrCpu<R extends GpuRunInfo>(call: GpuCall, onGpu: (g: typeof import('../webgpu/api.js'), report: GpuRunInfo) => Promise<R>, onCpu: () => Omit<R, keyof GpuRunInfo>): Promise<R> {
  const g = await import('../webgpu/api.js');
  const runtime = await g.gpuRuntime();
  if (runtime) {
    const a = runtime.context.adapter;
    return onGpu(g, { backend: 'gpu', adapter: `${a.name} (${a.backend})`, fallbackReason: '', arithmetic: call.gpuArithmetic });
  }
  const reason = g.gpuUnavailableReason();
  if (call.strict) throw new ModprecError('BACKEND_UNAVAILABLE', `no WebGPU adapter (${reason}) and options.strict forbids running on the CPU backend`, 'options.strict');
  (await import('../webgpu/backend.js')).fallbackNotice(reason);
  const extra = onCpu();
  return { ...extra, backend: 'cpu', adapter: '', fallbackReason: reason, arithmetic: call.gpuArithmetic } as R;
}
