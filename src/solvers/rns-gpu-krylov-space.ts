/**
 * The Krylov space of the GPU for an RNS arithmetic (`arithmetic: rnsFormat(p)`): vectors, the GMRES basis and the
 * matrix are resident device RNS arrays of the arithmetic's moduli set, every operation is a resident RNS kernel
 * (rnsGpuDot, rnsGpuNrm2, rnsGpuWaxpby, rnsGpuGemv, rnsGpuEllSpmv; each result one rounding to p bits of an exact
 * value), and only scalars come back, each rounded once to a double as the CPU's kernels return them. The vectors'
 * storage is an RNS format of at least p bits (checked in gpu-solve-checks.ts), so keeping them in the p-bit set
 * holds exactly what the CPU stores. GMRES's basis is one device array per column: its Gram–Schmidt GEMV T is a dot
 * product per column (all in flight together, their values returned as the coefficients), its GEMV N one update per
 * column. Small vectors (the coefficients, the least-squares solution) live on the host.
 * Loaded lazily by the solvers (it imports the GPU entry).
 * @module
 */
import { Range, range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { ModprecError } from '../core/errors.js';
import { gpuRuntime, gpuUnavailableReason } from '../backends/webgpu/api.js';
import { fallbackNotice } from '../backends/webgpu/backend.js';
import { rnsDeviceSet } from '../formats/rns/gpu/device-set.js';
import { rnsToDevice, rnsZerosOnDevice, type RnsDeviceArray } from '../formats/rns/gpu/rns-device-array.js';
import { rnsGpuScal, rnsGpuWaxpby } from '../formats/rns/gpu/update-rns-webgpu.js';
import { rnsGpuDot } from '../../kernels/dot/dot-rns-webgpu.js';
import { rnsGpuNrm2 } from '../../kernels/nrm2/nrm2-rns-webgpu.js';
import { rnsGpuGemv } from '../../kernels/gemv/gemv-rns-webgpu.js';
import { rnsEllToDevice, rnsGpuEllSpmv, type RnsDeviceEll } from '../../kernels/ell-spmv/ell-spmv-rns-webgpu.js';
import { cpuNumber, ellValuesFor, valuesOf, writeValues } from '../backends/webgpu-bridge/rns-dispatch.js';
import type { EllOperand } from '../../kernels/ell-spmv/ell-operand.js';
import type { cpuSpace } from './cpu-krylov-space.js';
import type { Preconditioner } from './jacobi.js';
import type { KrylovSpace } from './krylov-space.js';
import type { ValidatedSolve } from './solve-start.js';
import type { GpuSpace } from './gpu-krylov-space.js';

/** A vector of the space: resident (length n) or a small host vector. */
type Vector = RnsDeviceArray | Float64Array;

/**
 * Uploads the operator (and the preconditioner) and builds the RNS space of a validated GPU solve; where no adapter
 * exists, the CPU space in the same arithmetic (`onCpu`, handed in by the solvers so this lazy chunk imports no CPU
 * kernel), with the notice (`strict`: `BACKEND_UNAVAILABLE`).
 */
export async function rnsGpuSpace(v: ValidatedSolve, onCpu: typeof cpuSpace, M?: Preconditioner): Promise<GpuSpace> {
  const { n, storage, arithmetic: ar } = v.options;
  const runtime = await gpuRuntime();
  if (!runtime) {
    const reason = gpuUnavailableReason();
    if (v.strict) throw new ModprecError('BACKEND_UNAVAILABLE', `no WebGPU adapter (${reason}) and options.strict forbids running on the CPU backend`, 'options.strict');
    fallbackNotice(reason);
    return { space: onCpu(v.A, v.options, M) as unknown as GpuSpace['space'], release: () => undefined };
  }
  const set = rnsDeviceSet(ar.significandBits);
  const owned = new Set<RnsDeviceArray>();
  const releases: (() => void)[] = [];
  const track = (a: RnsDeviceArray): RnsDeviceArray => { owned.add(a); return a; };
  const zeros = (length: number): RnsDeviceArray => track(rnsZerosOnDevice(runtime, set, length));
  const device = (x: Vector): RnsDeviceArray => x as RnsDeviceArray;
  const host = (x: Vector): Float64Array => x as Float64Array;
  /** A one-element device result as the double the CPU kernel returns (one rounding), then released. */
  const scalar = async (pending: Promise<RnsDeviceArray>): Promise<number> => {
    const d = await pending;
    try {
      const [value] = await d.toExact();
      return ar.toNumber(cpuNumber(ar, value!));
    } finally {
      d.destroy();
    }
  };
  const like = zeros(1);
  const ellOf = async (A: EllOperand): Promise<RnsDeviceEll> => {
    const values = await ellValuesFor(A, set);
    const e = await rnsEllToDevice(A.structure, values, like);
    releases.push(() => {
      e.colIndex.destroy();
      if (e.values.kind === 'f64') e.values.buffer.destroy(); else e.values.array.destroy();
    });
    return e;
  };
  const dense = v.A.kind === 'dense' ? track(await rnsToDevice(valuesOf(v.A.dense!, set.precision), set)) : undefined;
  const ell = v.A.kind === 'ell' ? await ellOf(v.A.ell!) : undefined;
  const pre = M ? await ellOf(M.ell) : undefined;

  const space: KrylovSpace<Vector, RnsDeviceArray[]> = {
    n,
    make: () => zeros(n),
    makeWide: () => zeros(n),   // RNS storage holds b and any residual
    load: async (values) => {
      if (values === undefined) return zeros(n);
      return track(await rnsToDevice(values instanceof Range ? valuesOf(values, set.precision) : Float64Array.from(values), set));
    },
    copy: (src, dst) => rnsGpuWaxpby(1, device(src), 0, device(src), device(dst)),
    // Every vector holds values of the arithmetic's p bits: a copy rounds nothing.
    copyExact: (src, dst) => rnsGpuWaxpby(1, device(src), 0, device(src), device(dst)),
    dot: (x, y) => scalar(rnsGpuDot(device(x), device(y))),
    norm: (x) => scalar(rnsGpuNrm2(device(x))),
    // A zero coefficient's vector is not read: RNS holds no NaN, so 0·y is 0 whatever y holds.
    update: (alpha, x, beta, y, out) => rnsGpuWaxpby(alpha, device(x), beta, device(y), device(out)),
    apply: (alpha, x, beta, y) => (ell
      ? rnsGpuEllSpmv({ A: ell, x: device(x), y: device(y), alpha, beta })
      : rnsGpuGemv({ A: dense!, m: n, n, lda: Math.max(1, n), x: device(x), y: device(y), alpha, beta })),
    precondition: (r, z) => rnsGpuEllSpmv({ A: pre!, x: device(r), y: device(z), alpha: 1, beta: 0 }),
    basis: (columns) => {
      const cols = Array.from({ length: columns }, () => zeros(n));
      return { column: (j) => cols[j]!, leading: (k) => cols.slice(0, k) };
    },
    gemv: async (alpha, V, x, beta, y, trans) => {
      if (trans === 'T') {
        // y := α·Vᵀ·x + β·y into a small host vector: the column dot products in flight together.
        const dots = await Promise.all(V.map((column) => scalar(rnsGpuDot(column, device(x)))));
        const out = host(y);
        dots.forEach((d, j) => { out[j] = beta === 0 ? alpha * d : alpha * d + beta * out[j]!; });
        return;
      }
      // y := α·V·x + β·y with x small on the host: β·y, then one update per column with a non-zero coefficient.
      const big = device(y), coefficients = host(x);
      if (beta !== 1) await rnsGpuScal(beta, big);
      for (let j = 0; j < V.length; j++) {
        const c = alpha * coefficients[j]!;
        if (c !== 0) await rnsGpuWaxpby(c, V[j]!, 1, big, big);
      }
    },
    small: (length) => new Float64Array(length),
    read: (x) => host(x).slice(),
    upload: (values) => values.slice(),
    free: (x) => { if (!(x instanceof Float64Array)) { x.destroy(); owned.delete(x); } },
    both: (a, b) => Promise.all([a, b]),
    result: async (x) => {
      const out = range(rowMajor<1, any>({ size: [n], storage, arithmetic: ar }));
      writeValues(out, await device(x).toExact(), ar);
      return out;
    },
    // RNS is at least as precise as fp64: the true residual in the space's own operations (KrylovSpace.wide).
    get wide() { return space; },
  };
  return {
    space: space as unknown as GpuSpace['space'],
    release: () => { for (const a of owned) a.destroy(); owned.clear(); for (const r of releases) r(); },
  };
}
