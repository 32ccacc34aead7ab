/**
 * Everything `modprec/gpu` exports, for the library's own lazy loaders (the kernels' `backend: 'gpu'` runs, the GPU
 * solvers): the entry (./index.ts) adds only the host fallback's CPU kernels (./host-kernels.ts), which these
 * loaders must not import — a lazy chunk that imports a CPU kernel makes esbuild load that kernel with the page.
 * @module
 */
export { gpuDevice, requireGpu, gpuUnavailableReason, releaseGpuWhenIdle, type AdapterReport, type DawnBackend, type GpuContext, type GpuDeviceOptions, type GpuLimits } from './backend.js';
export { gpuRuntime, type GpuRuntime } from './runtime.js';
export { toDevice, toDeviceSpan, spanToRange, deviceView, deviceZeros, DeviceArray, type ToDeviceOptions, type RangeLike } from './device-array.js';
export { GPU_FORMATS, gpuFormat, type GpuFormatName, type GpuStorageFormat } from './formats.js';
export { gpuArithmetic, type GpuArithmeticName } from './arithmetic.js';
export { gpuDot, gpuDotResident, DEFAULT_SHAPE as GPU_DOT_DEFAULT_SHAPE, type GpuDotResult, type GpuDotOptions } from '../../../kernels/dot/dot-webgpu.js';
export { gpuGemv, deviceMatrix, deviceMatrixView, toDeviceMatrix, type DeviceMatrix, type GpuGemvArgs, type GpuGemvOptions } from '../../../kernels/gemv/gemv-webgpu.js';
export { gpuTrsv, type GpuTrsvArgs, type GpuTrsvOptions } from '../../../kernels/trsv/trsv-webgpu.js';
export { gpuEllSpmv, toDeviceEll, deviceEllView, type DeviceEll, type EllParts, type GpuEllSpmvArgs } from '../../../kernels/ell-spmv/ell-spmv-webgpu.js';
export { gpuConvert, type GpuConvertOptions } from './convert.js';
export { gpuUpdate, type GpuUpdateArgs } from '../../../kernels/waxpby/update-webgpu.js';
export { gpuAsum, type GpuAsumResult } from '../../../kernels/asum/asum-webgpu.js';
export { gpuNrm2, type GpuNrm2Result } from '../../../kernels/nrm2/nrm2-webgpu.js';
export { setGpuKernelDebug } from './program.js';
export { rnsDeviceSet, type RnsDeviceSet, type RnsDeviceLevel } from '../../formats/rns/gpu/device-set.js';
export { rnsToDevice, RnsDeviceArray, type RnsExactValue } from '../../formats/rns/gpu/rns-device-array.js';
export { rnsArrayToDevice, rnsDeviceToArray } from '../../formats/rns/gpu/cpu-arrays.js';
export type { RnsCoefficient } from '../../formats/rns/gpu/rns-device-kernel.js';
export { rnsGpuWaxpby, rnsGpuAxpy, rnsGpuScal } from '../../formats/rns/gpu/update-rns-webgpu.js';
export { rnsGpuDot } from '../../../kernels/dot/dot-rns-webgpu.js';
export { rnsGpuTrsv, type RnsGpuTrsvArgs } from '../../../kernels/trsv/trsv-rns-webgpu.js';
export { rnsGpuAsum } from '../../../kernels/asum/asum-rns-webgpu.js';
export { rnsGpuNrm2 } from '../../../kernels/nrm2/nrm2-rns-webgpu.js';
export { rnsGpuGemv, type RnsGpuGemvArgs } from '../../../kernels/gemv/gemv-rns-webgpu.js';
export { rnsGpuEllSpmv, rnsEllToDevice, type RnsDeviceEll, type RnsGpuEllSpmvArgs } from '../../../kernels/ell-spmv/ell-spmv-rns-webgpu.js';
export type { GpuKernelOptions, GpuRunInfo } from './kernel-common.js';
// Listed last: the API reference check runs the examples in export order, and releaseGpu's destroys the device.
export { releaseGpu } from './backend.js';
