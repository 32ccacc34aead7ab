/**
 * DOT case: xᵀy for random x, y (seed 004, Figure 9).
 * @module
 */
import { dot, findFormat, range, rowMajor } from '../../modprec.js';
import { dotReference } from '../reference.js';
import { deviceOptions, GPU_BITS, hostPairs, kernelOptions } from '../gpu-backend.js';
import { makeCase, type KernelCase } from '../kernel-case.js';
import { valuesOf, vectorOf } from '../operands.js';
import { randomValues, studyRandom } from '../random-data.js';
import type { Distribution } from '../types.js';

/**
 * A DOT problem of length `n` with values of `distribution` drawn from `seed`.
 * @returns the case: 2n flops, 2n values read per call
 */
export function dotCase(n: number, distribution: Distribution, seed: number): KernelCase {
  const x = randomValues(n, distribution, studyRandom(seed, 1));
  const y = randomValues(n, distribution, studyRandom(seed, 2));
  return makeCase({
    kernel: 'dot', problem: distribution, size: n, seed, flops: 2 * n, values: 2 * n, inputs: [x, y], integerLayouts: ['vector', 'vector'],
    referenceOf: ([a, b], precision) => dotReference(a!, b!, precision),
    resultStored: false,
    outputTerms: (ref) => {
      let absProducts = 0;
      let absInputs = 0;
      for (let i = 0; i < n; i++) {
        absProducts += Math.abs(x[i]! * y[i]!);
        absInputs += Math.abs(x[i]!) + Math.abs(y[i]!);
      }
      // Sums of non-negative doubles: round up by a relative n·2^-53 so the terms stay upper bounds.
      const up = 1 + (n + 2) * 2 ** -52;
      return [{ terms: n, absProducts: absProducts * up, absInputs: absInputs * up, absExact: Math.abs(ref.hi[0]! + ref.lo[0]!) }];
    },
    bindGpu: async (gpu, config) => {
      const format = deviceOptions(config.storage);
      const [xd, yd] = [await gpu.lib.toDevice(x, format), await gpu.lib.toDevice(y, format)];
      if (GPU_BITS[config.arithmetic]! > 53) {
        // Wider than a double (dd): the result stays on the device in the arithmetic's words, read as a pair (as
        // the CPU rows keep theirs through `into`).
        let resident: Awaited<ReturnType<typeof gpu.lib.gpuDotResident>> | undefined;
        return {
          run: async () => {
            resident?.result.destroy();
            resident = await gpu.lib.gpuDotResident(xd, yd, kernelOptions(config.arithmetic));
            return resident.info;
          },
          sync: async () => { await resident?.result.toHost(); },
          result: () => hostPairs(resident!.result),
          dispose: () => { xd.destroy(); yd.destroy(); resident?.result.destroy(); },
        };
      }
      let last = NaN;
      return {
        run: async () => { const r = await gpu.lib.gpuDot(xd, yd, kernelOptions(config.arithmetic)); last = r.value; return r; },
        sync: async () => {}, // the value is read back by every call
        result: async () => ({ hi: Float64Array.of(last), lo: new Float64Array(1) }),
        dispose: () => { xd.destroy(); yd.destroy(); },
      };
    },
    bind: (config) => {
      const xr = vectorOf(config, x);
      const yr = vectorOf(config, y);
      // An arithmetic wider than a double keeps its full result in a 1-element range of its own format.
      const wide = config.arithmeticFormat.significandBits > 53 && findFormat(config.arithmetic)?.storage;
      const into = wide ? range(rowMajor<1, any>({ size: [1], storage: config.arithmetic, arithmetic: config.arithmeticFormat })) : undefined;
      const options = { arithmetic: config.arithmeticFormat, ...(into ? { into } : {}) };
      let last = NaN;
      return {
        run: () => { last = dot(xr, yr, options); },
        result: () => (into ? valuesOf(into) : { hi: Float64Array.of(last), lo: new Float64Array(1) }),
      };
    },
  });
}
