/**
 * The Krylov space of the GPU: vectors, the GMRES basis and the matrix are resident device arrays; every operation
 * is a resident kernel (gpuDot, gpuNrm2, gpuUpdate, gpuEllSpmv, gpuGemv) in the solver's arithmetic (f32 or ff), and
 * only scalars come back. Loaded lazily by the solvers (it imports the GPU entry).
 * @module
 */
import { Range, range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { toArray } from '../core/vectors.js';
import {
  DeviceArray, deviceEllView, deviceMatrix, deviceView, gpuDot, gpuEllSpmv, gpuFormat, gpuGemv, gpuNrm2, gpuRuntime,
  gpuUnavailableReason, gpuUpdate, spanToRange, toDevice, toDeviceMatrix, type DeviceEll, type DeviceMatrix, type GpuFormatName,
} from '../backends/webgpu/api.js';
import { fallbackNotice } from '../backends/webgpu/backend.js';
import { ModprecError } from '../core/errors.js';
import { asArithmetic } from '../formats/common/registry.js';
import { ff as ffFormat, f32 as f32Format } from '../formats/index.js';
import { dd as ddFormat } from '../formats/dd/register.js';
import type { StorageFormat } from '../formats/common/format.js';
import type { Preconditioner } from './jacobi.js';
import type { KrylovSpace } from './krylov-space.js';
import type { ValidatedSolve } from './solve-start.js';

/** A GPU space and the release of everything it allocated. */
export interface GpuSpace {
  readonly space: KrylovSpace<DeviceArray, DeviceMatrix>;
  release(): void;
}

/** Uploads the operator (and the preconditioner) and builds the space of a validated GPU solve. */
export async function gpuSpace(v: ValidatedSolve, M?: Preconditioner): Promise<GpuSpace> {
  const { n, storage, arithmetic } = v.options;
  const strict = v.strict;
  const runtime = await gpuRuntime();
  let reason = '';
  if (!runtime) {
    reason = gpuUnavailableReason();
    if (strict) throw new ModprecError('BACKEND_UNAVAILABLE', `no WebGPU adapter (${reason}) and options.strict forbids running on the CPU backend`, 'options.strict');
    reason = fallbackNotice(reason);
  }
  const kernelOptions = { arithmetic: arithmetic as { name: string }, strict };
  // True residuals in float-float where the arithmetic is f32 (see KrylovSpace.wide): the widest the GPU reads every
  // storage of an f32 solve in; in double-double where it is float-float (48 bits: x read rounded to them, a residual
  // of 0 stood for 2·10⁻¹¹, and solves reported 'converged' to 1e-13).
  const residualOptions = arithmetic.name === 'f32' ? { arithmetic: asArithmetic(ffFormat), strict }
    : arithmetic.name === 'ff' ? { arithmetic: asArithmetic(ddFormat), strict } : kernelOptions;
  const format = gpuFormat(storage.name as GpuFormatName, 'options.storage');
  // Copies of x word for word (see KrylovSpace.copyExact): double-double holds f64 and dd, f32 holds f32, f16 and bf16.
  const exactOptions = { arithmetic: storage.name === 'f64' || storage.kind !== 'number' ? asArithmetic<unknown>(ddFormat) : asArithmetic<unknown>(f32Format), strict };
  const f64 = gpuFormat('f64');
  // b and true residuals: f64 for a storage of doubles narrower than fp64 (f32, bf16, f16), else the storage itself
  const wide = storage.kind === 'number' ? f64 : format;
  const owned: DeviceArray[] = [];
  const basisRelease: (() => void)[] = [];
  const zeros = (fmt: typeof format, length: number): DeviceArray => {
    const a = new DeviceArray(runtime, fmt, length, 256, { words: new Uint32Array(Math.max(1, fmt.words(length))) }, reason);
    owned.push(a);
    return a;
  };
  const ellOf = async (structure: { rows: number; cols: number; width: number; stride: number; colIndex: Int32Array }, values: Range<2, any>): Promise<DeviceEll> =>
    deviceEllView(structure, await toDeviceMatrix(values as never, { strict }));
  const dense = v.A.kind === 'dense' ? await toDeviceMatrix(v.A.dense as never, { strict }) : undefined;
  const ell = v.A.kind === 'ell' ? await ellOf(v.A.ell!.structure, v.A.ell!.values) : undefined;
  const pre = M ? await ellOf(M.ell.structure, M.ell.values) : undefined;
  const upload = async (values: ArrayLike<number>, fmt: GpuFormatName): Promise<DeviceArray> => {
    const a = await toDevice(Float64Array.from(values), { format: fmt, strict });
    owned.push(a);
    return a;
  };
  // A range of the vectors' own storage wider than a double (dd) goes up as its words, contiguous: through doubles
  // (toArray) b = 1 + 2^-80 was solved as 1, where the CPU keeps all of it.
  const uploadWide = async (values: Range<1, any>): Promise<DeviceArray> => {
    const { storage: st, arithmetic: ar } = values.accessor;
    const contiguous = range(rowMajor<1, any>({ size: [n], storage: st, arithmetic: ar }));
    for (let i = 0; i < n; i++) contiguous.set(i, values.get(i));
    const a = await toDevice(contiguous as never, { format: format.name as GpuFormatName, strict });
    owned.push(a);
    return a;
  };
  const applyIn = (options: typeof kernelOptions) => (alpha: number, x: DeviceArray, beta: number, y: DeviceArray): Promise<void> => (ell
    ? gpuEllSpmv({ A: ell, x, y, alpha, beta }, options)
    : gpuGemv({ A: dense!, x, y, alpha, beta, trans: 'N' }, options)).then(() => undefined);
  const copyIn = (options: typeof kernelOptions) => (src: DeviceArray, dst: DeviceArray): Promise<void> => gpuUpdate({ alpha: 1, x: src, beta: 0, out: dst }, options).then(() => undefined);
  const normIn = (options: typeof kernelOptions) => (x: DeviceArray): Promise<number> => gpuNrm2(x, options).then((r) => r.value);
  const space: KrylovSpace<DeviceArray, DeviceMatrix> = {
    n,
    make: () => zeros(format, n),
    makeWide: () => zeros(wide, n),
    load: (values, asWide = false) => {
      const fmt = asWide ? wide : format;
      if (values === undefined) return zeros(fmt, n);
      if (values instanceof Range && values.accessor.storage.kind !== 'number' && values.accessor.storage.name === format.name) return uploadWide(values);
      return upload(values instanceof Range ? toArray(values) : values, fmt.name as GpuFormatName);
    },
    copy: copyIn(kernelOptions),
    copyExact: copyIn(exactOptions),
    dot: (x, y) => gpuDot(x, y, kernelOptions).then((r) => r.value),
    norm: normIn(kernelOptions),
    update: (alpha, x, beta, y, out) => gpuUpdate({ alpha, x: alpha === 0 ? undefined : x, beta, y: beta === 0 ? undefined : y, out }, kernelOptions).then(() => undefined),
    apply: applyIn(kernelOptions),
    precondition: (r, z) => gpuEllSpmv({ A: pre!, x: r, y: z, alpha: 1, beta: 0 }, kernelOptions).then(() => undefined),
    basis: (columns, basisStorage) => {
      // One span of n × columns elements, column-major, read by GEMV as a matrix; columns are written through views
      // of it, which share its storage (a column write costs the column, not the span).
      const fmt = gpuFormat((basisStorage as StorageFormat).name as GpuFormatName, 'options.basisStorage');
      const span = new DeviceArray(runtime, fmt, n * columns, 256, { words: new Uint32Array(Math.max(1, fmt.words(n * columns))) }, reason);
      basisRelease.push(() => span.destroy());
      return {
        column: (j) => deviceView(span, j * n, n, 1),
        leading: (k) => deviceMatrix(span, n, k, n),
      };
    },
    gemv: (alpha, Mx, x, beta, y, trans) => gpuGemv({ A: Mx, x, y, alpha, beta, trans }, kernelOptions).then(() => undefined),
    small: (length) => zeros(f64, length),
    read: (x) => x.toHost(),
    upload: (values) => upload(values, 'f64'),
    free: (x) => { x.destroy(); const i = owned.indexOf(x); if (i >= 0) owned.splice(i, 1); },
    both: (a, b) => Promise.all([a, b]),
    wide: { copy: copyIn(residualOptions), apply: applyIn(residualOptions), norm: normIn(residualOptions) },
    result: async (x) => {
      const out = range(rowMajor<1, any>({ size: [n], storage, arithmetic }));
      // dd comes back as its words (toHost would round each element to a double)
      if (storage.kind !== 'number') { await spanToRange(x, out as never); return out; }
      const values = await x.toHost();
      for (let i = 0; i < n; i++) out.set(i, values[i]!);
      return out;
    },
  };
  return { space, release: () => { for (const a of owned) a.destroy(); owned.length = 0; for (const r of basisRelease) r(); } };
}
