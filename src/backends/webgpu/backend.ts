/**
 * The one place modprec obtains a WebGPU device.
 *
 * Node: the `webgpu` package (Dawn), loaded lazily — Dawn's default backend first (Metal on macOS, D3D12 or
 * Vulkan on Windows, Vulkan on Linux: a real GPU), then Dawn's OpenGL ES backend as a compatibility adapter (Mesa llvmpipe on a machine without a GPU, `EGL_PLATFORM=surfaceless`).
 * Browser: `navigator.gpu`. The device is shared with gpu.js (its WebGPU backend keeps one device per
 * page); the adapter that runs is reported by name, backend and limits. Where no adapter comes up,
 * {@link gpuDevice} resolves `undefined` with the reason in {@link gpuUnavailableReason}, and the GPU
 * entry points fall back to the CPU with a one-line notice — or throw `BACKEND_UNAVAILABLE` when strict.
 *
 * @module
 */
import { ModprecError } from '../../core/errors.js';
import type { GpuAdapter, GpuDevice } from './webgpu-types.js';
import { installTranslatorExtensions, registerIntrinsics } from './gpujs-extensions.js';
import { gpuTimestampGranularity } from './gpu-timestamps.js';

/**
 * Limits of the adapter that kernels respect (bytes or counts, as WebGPU reports them).
 * @group GPU
 */
export interface GpuLimits {
  readonly maxStorageBufferBindingSize: number;
  readonly maxBufferSize: number;
  readonly maxComputeWorkgroupSizeX: number;
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupsPerDimension: number;
  readonly maxStorageBuffersPerShaderStage: number;
  readonly minStorageBufferOffsetAlignment: number;
}

/**
 * Which adapter runs GPU kernels.
 * @group GPU
 */
export interface AdapterReport {
  /** Human-readable adapter name (vendor, architecture or description, whichever the platform gives). */
  readonly name: string;
  readonly vendor: string;
  readonly architecture: string;
  readonly description: string;
  /** `default` (Dawn's platform default: Metal, D3D12 or Vulkan), `vulkan` or `opengl` (Dawn in Node), `browser` (navigator.gpu). */
  readonly backend: DawnBackend | 'browser';
  /** What was tried before this adapter came up, in order (e.g. `default: no adapter`, `opengl: adapter`). */
  readonly tried: readonly string[];
  /** `core` or `compatibility` (the OpenGL ES adapter only offers the latter). */
  readonly featureLevel: 'core' | 'compatibility';
  readonly limits: GpuLimits;
  /** Features the adapter has (e.g. `shader-f16`). */
  readonly features: readonly string[];
}

/**
 * A WebGPU device shared by modprec and gpu.js, with the adapter that provides it.
 * @group GPU
 */
export interface GpuContext {
  /** The device (typed loosely: the WebGPU types come from the platform). */
  readonly device: GpuDevice;
  readonly adapter: AdapterReport;
  /** The gpu.js instance (mode `webgpu`) whose translator compiles modprec's kernels. */
  readonly gpujs: GpuJsInstance;
  /** gpu.js module exports (the `Input` class and friends). */
  readonly gpujsModule: Record<string, unknown>;
}

/** The slice of a gpu.js `GPU` instance modprec uses. */
export interface GpuJsInstance {
  createKernel(source: string, settings: object): { kernel: unknown };
  addFunction(source: string, settings: object): unknown;
}

/**
 * A Dawn backend to ask for an adapter in Node: `default` lets Dawn pick the platform's (Metal, D3D12, Vulkan).
 * @group GPU
 */
export type DawnBackend = 'default' | 'vulkan' | 'opengl';

/**
 * Options for {@link gpuDevice}.
 * @group GPU
 */
export interface GpuDeviceOptions {
  /**
   * Dawn backends to try in Node, in order (default `['default', 'opengl']`). The environment variable
   * `MODPREC_GPU_BACKEND` (`default` | `vulkan` | `opengl`) narrows the list to one; `none` tries none (no adapter:
   * the kernels' `backend: 'gpu'` then runs the CPU backend, or throws when strict).
   */
  readonly backends?: readonly DawnBackend[];
}

let contextPromise: Promise<GpuContext | undefined> | undefined;
let unavailableReason = '';

/**
 * Why the last {@link gpuDevice} call found no adapter ('' when one was found or none was tried).
 * @example
 * ```ts
 * import { gpuDevice, gpuUnavailableReason } from 'modprec/gpu';
 *
 * const gpu = await gpuDevice();
 * if (!gpu) console.log(gpuUnavailableReason()); // e.g. "no WebGPU adapter (default: no adapter; opengl: …)"
 * (gpu === undefined) === (gpuUnavailableReason() !== ''); // → true
 * ```
 * @group GPU
 */
export function gpuUnavailableReason(): string {
  return unavailableReason;
}

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

interface NavigatorGpu {
  requestAdapter(options?: object): Promise<GpuAdapter | null>;
  getPreferredCanvasFormat?(): string;
  wgslLanguageFeatures?: unknown;
}

/** Node's environment variables (only called where `isNode()`). */
function nodeEnv(): Record<string, string | undefined> {
  return (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
}

/**
 * Extra flags for Dawn's `create()` from `MODPREC_DAWN_FLAGS` (space-separated), e.g.
 * `enable-dawn-features=disable_robustness` to measure what Dawn's bounds clamping costs. Unset: none.
 */
function extraDawnFlags(): string[] {
  return (nodeEnv().MODPREC_DAWN_FLAGS ?? '').split(/\s+/).filter(Boolean);
}

/** Finds an adapter in Node through Dawn; returns it with the backend that produced it. */
async function nodeAdapter(backends: readonly DawnBackend[], tried: string[]): Promise<{ gpu: NavigatorGpu; adapter: GpuAdapter; backend: DawnBackend; featureLevel: 'core' | 'compatibility' } | undefined> {
  // A variable specifier keeps bundlers from pulling the Node-only package into browser builds.
  const specifier = 'webgpu';
  let webgpu: { create(flags: string[]): NavigatorGpu };
  try {
    webgpu = (await import(specifier)) as typeof webgpu;
  } catch (e) {
    unavailableReason = `the 'webgpu' package (Dawn for Node) could not be loaded: ${(e as Error).message.split('\n')[0]}`;
    return undefined;
  }
  for (const backend of backends) {
    try {
      if (backend === 'opengl') {
        // Mesa's EGL needs a platform without a display server.
        nodeEnv().EGL_PLATFORM ??= 'surfaceless';
      }
      const gpu = webgpu.create([...(backend === 'default' ? [] : [`backend=${backend}`]), ...extraDawnFlags()]);
      let adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
      let featureLevel: 'core' | 'compatibility' = 'core';
      if (!adapter) {
        adapter = await gpu.requestAdapter({ powerPreference: 'high-performance', featureLevel: 'compatibility' });
        featureLevel = 'compatibility';
      }
      if (adapter) {
        if (featureLevel === 'core' && (adapter as unknown as { featureLevel?: string }).featureLevel === 'compatibility') featureLevel = 'compatibility';
        tried.push(`${backend}: adapter (${featureLevel})`);
        return { gpu, adapter, backend, featureLevel };
      }
      tried.push(`${backend}: no adapter`);
    } catch (e) {
      tried.push(`${backend}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  unavailableReason = `no WebGPU adapter (${tried.join('; ')})`;
  return undefined;
}

function describeAdapter(adapter: GpuAdapter, backend: AdapterReport['backend'], featureLevel: AdapterReport['featureLevel'], limits: GpuLimits, tried: readonly string[]): AdapterReport {
  const info = (adapter as unknown as { info?: Record<string, string> }).info ?? {};
  const vendor = info.vendor ?? '';
  const architecture = info.architecture ?? '';
  const description = info.description ?? '';
  // Dawn reports the GPU model in `device` (e.g. "NVIDIA H100 80GB HBM3") and the driver in `description`.
  const model = info.device ?? '';
  const name = [model, description].filter(Boolean).join(', ') || [vendor, architecture].filter(Boolean).join(' ') || 'unknown adapter';
  return { name, vendor, architecture, description, backend, tried, featureLevel, limits, features: [...adapter.features] };
}

function readLimits(device: GpuDevice): GpuLimits {
  const l = device.limits;
  return {
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxBufferSize: l.maxBufferSize,
    maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
    maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    minStorageBufferOffsetAlignment: l.minStorageBufferOffsetAlignment,
  };
}

async function acquire(options: GpuDeviceOptions): Promise<GpuContext | undefined> {
  let found: { gpu: NavigatorGpu; adapter: GpuAdapter; backend: AdapterReport['backend']; featureLevel: AdapterReport['featureLevel'] } | undefined;
  const nav = (globalThis as { navigator?: { gpu?: NavigatorGpu } }).navigator;
  const tried: string[] = [];
  if (isNode()) {
    const only = nodeEnv().MODPREC_GPU_BACKEND;
    if (only === 'none') {
      unavailableReason = 'MODPREC_GPU_BACKEND=none';
      return undefined;
    }
    const backends: readonly DawnBackend[] = only === 'default' || only === 'vulkan' || only === 'opengl' ? [only] : (options.backends ?? ['default', 'opengl']);
    found = await nodeAdapter(backends, tried);
  } else if (nav?.gpu) {
    let adapter = await nav.gpu.requestAdapter({ powerPreference: 'high-performance' });
    let featureLevel: 'core' | 'compatibility' = 'core';
    if (!adapter) {
      adapter = await nav.gpu.requestAdapter({ featureLevel: 'compatibility' });
      featureLevel = 'compatibility';
    }
    tried.push(`browser: ${adapter ? `adapter (${featureLevel})` : 'no adapter'}`);
    if (adapter) found = { gpu: nav.gpu, adapter, backend: 'browser', featureLevel };
    else unavailableReason = 'navigator.gpu is present but no adapter is available';
  } else {
    unavailableReason = 'this platform has no WebGPU (navigator.gpu is missing)';
  }
  if (!found) return undefined;
  const chosen = found;
  // gpu.js asks navigator.gpu for its adapter and device; hand it the adapter chosen here so the two
  // share one device.
  const shim: NavigatorGpu = {
    requestAdapter: async () => withWorkgroupLimits(chosen.adapter),
    getPreferredCanvasFormat: () => chosen.gpu.getPreferredCanvasFormat?.() ?? 'rgba8unorm',
    wgslLanguageFeatures: chosen.gpu.wgslLanguageFeatures,
  };
  const g = globalThis as { navigator?: { gpu?: NavigatorGpu } };
  if (!g.navigator) g.navigator = { gpu: shim };
  else if (chosen.backend !== 'browser') Object.defineProperty(g.navigator, 'gpu', { value: shim, configurable: true });
  const gpujsModule = (await import('gpu.js')) as unknown as Record<string, unknown>;
  const mod = ((gpujsModule as { default?: Record<string, unknown> }).default ?? gpujsModule) as Record<string, unknown>;
  installTranslatorExtensions(mod.WGSLFunctionNode, mod.WebGPUKernel);
  const context = (await (mod.WebGPUContext as { acquire(): Promise<{ device: GpuDevice }> }).acquire());
  const device = context.device;
  const GPUClass = mod.GPU as new (settings: object) => GpuJsInstance;
  const gpujs = new GPUClass({ mode: 'webgpu' });
  registerIntrinsics(gpujs);
  const adapter = describeAdapter(chosen.adapter, chosen.backend, chosen.featureLevel, readLimits(device), tried);
  unavailableReason = '';
  return { device, adapter, gpujs, gpujsModule: mod };
}

/**
 * The adapter, asking in its device requests for the workgroup limits modprec's workgroup kernels use
 * (256 invocations, 16 KiB of workgroup memory — WebGPU's core defaults, which compatibility adapters such as
 * llvmpipe's lower to 128 unless asked) wherever the adapter offers them.
 */
function withWorkgroupLimits(adapter: GpuAdapter): GpuAdapter {
  const limits = adapter.limits as unknown as Record<string, number>;
  const wanted: Record<string, number> = {};
  for (const [name, value] of [['maxComputeWorkgroupSizeX', 256], ['maxComputeInvocationsPerWorkgroup', 256], ['maxComputeWorkgroupStorageSize', 16384]] as const) {
    if ((limits[name] ?? 0) >= value) wanted[name] = value;
  }
  // GPU timestamps (MODPREC_GPU_TIMESTAMPS, a diagnostic: gpu-timestamps.ts) need the feature at device creation.
  const features = gpuTimestampGranularity() && [...adapter.features].includes('timestamp-query') ? ['timestamp-query'] : [];
  return new Proxy(adapter, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property !== 'requestDevice' || typeof value !== 'function') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return (descriptor: { requiredLimits?: Record<string, number>; requiredFeatures?: readonly string[] } = {}) => (value as (d: object) => unknown).call(target, { ...descriptor, requiredLimits: { ...wanted, ...descriptor.requiredLimits }, ...(features.length > 0 ? { requiredFeatures: [...(descriptor.requiredFeatures ?? []), ...features] } : {}) });
    },
  });
}

let busy = 0;
let watcher: ReturnType<typeof setInterval> | undefined;
let releaseWhenIdle = true;

/**
 * Marks `work` as GPU work in flight until it settles: the idle release ({@link releaseGpuWhenIdle}) waits for
 * it. Every await on the device inside modprec goes through here (compiles, read-backs, queue completion).
 * @param work - a promise that waits on the device
 * @returns the same settlement
 * @example
 * ```ts
 * await trackGpuWork(staging.mapAsync(1));
 * ```
 */
export async function trackGpuWork<T>(work: Promise<T>): Promise<T> {
  busy++;
  try {
    return await work;
  } finally {
    busy--;
  }
}

/**
 * Whether nothing but Dawn's polling (one pending `setImmediate` at a time) keeps the Node event loop alive. The handles of
 * process.stdout and process.stderr are listed as resources too (ref'd pipes or TTYs that do not keep a process
 * alive when idle); any other resource — a timer, a socket, stdin being read, a pending write — means not idle.
 */
function onlyDawnKeepsAlive(): boolean {
  const p = (globalThis as { process?: NodeProcessLike }).process;
  const info = p?.getActiveResourcesInfo?.();
  if (!p || !info) return false;
  // Node lists one 'Immediate' per pending setImmediate: Dawn's polling keeps one; a second is the caller's own
  // (a loop yielding between steps), which means work is still coming.
  if (info.filter((r) => r === 'Immediate').length > 1) return false;
  const others = info.filter((r) => r !== 'Immediate');
  if (others.length === 0) return true;
  const stdio = (p._getActiveHandles?.() ?? []).filter((h) => h === p.stdout || h === p.stderr).length;
  return others.length <= stdio && others.every((r) => r === 'PipeWrap' || r === 'TTYWrap');
}

/** The parts of Node's `process` the idle check reads. */
interface NodeProcessLike {
  getActiveResourcesInfo?: () => string[];
  _getActiveHandles?: () => unknown[];
  stdout?: unknown;
  stderr?: unknown;
}

/**
 * Destroys the WebGPU device now, so that a Node process can end (Dawn polls the device with `setImmediate`
 * for as long as it lives, which keeps the event loop alive for ever). Afterwards no adapter is available to
 * this process: GPU entry points run the CPU backend with a notice, or throw `BACKEND_UNAVAILABLE` when strict;
 * resident arrays on the device are gone. Called automatically when the process goes idle unless
 * {@link releaseGpuWhenIdle}(false).
 * @example
 * ```ts
 * import { vector, formats, dot } from 'modprec';
 * import { releaseGpu } from 'modprec/gpu';
 *
 * const x = vector([1, 2, 3], { storage: formats.f32 });
 * const { value } = await dot(x, x, { backend: 'gpu', arithmetic: formats.ff });
 * value; // → 14
 * await releaseGpu(); // the script may now end; later GPU calls in it run the CPU backend
 * ```
 * @group GPU
 */
export async function releaseGpu(): Promise<void> {
  if (watcher !== undefined) clearInterval(watcher);
  watcher = undefined;
  const context = await contextPromise;
  contextPromise = Promise.resolve(undefined);
  unavailableReason = 'the WebGPU device was released (releaseGpu, or the process went idle)';
  releasedHooks.forEach((h) => h());
  context?.device.destroy();
}

const releasedHooks: (() => void)[] = [];
/** @internal Runs `hook` when the device is released (the runtime drops its cached state). */
export function onGpuReleased(hook: () => void): void {
  releasedHooks.push(hook);
}

/**
 * Whether modprec releases the WebGPU device by itself when a Node process has nothing left to do but Dawn's
 * polling (default true): checked every 100 ms by an unreferenced timer, never while modprec awaits the device.
 * Turn it off only where something outside Node's event loop will call into modprec later; then call
 * {@link releaseGpu} before the process should end.
 * @param on - whether to release on idle
 * @example
 * ```ts
 * import { releaseGpuWhenIdle } from 'modprec/gpu';
 *
 * // Calls will come from outside Node's event loop (e.g. a native host): keep the device while idle …
 * releaseGpuWhenIdle(false);
 * // … and, once they are over, let the process release it when idle again (or call releaseGpu()).
 * releaseGpuWhenIdle(true);
 * ```
 * @group GPU
 */
export function releaseGpuWhenIdle(on: boolean): void {
  releaseWhenIdle = on;
}

/**
 * Routes every promise the device hands out (queue completion, buffer mapping, asynchronous pipeline creation,
 * error scopes, compilation info) through {@link trackGpuWork}, whoever awaits it — modprec, gpu.js or the
 * caller's own code (a benchmark awaiting onSubmittedWorkDone) — so the idle release never destroys a device
 * that something still waits on.
 */
function trackDevicePromises(device: GpuDevice): void {
  type Fn = (...args: unknown[]) => unknown;
  const wrap = (target: Record<string, unknown>, name: string, after?: (result: unknown) => unknown): void => {
    const f = target[name];
    if (typeof f !== 'function') return;
    const bound = (f as Fn).bind(target);
    try {
      target[name] = (...args: unknown[]) => {
        const r = bound(...args);
        return after ? after(r) : r instanceof Promise ? trackGpuWork(r) : r;
      };
    } catch {
      // A read-only method: that path stays untracked (modprec's own awaits are tracked where they happen).
    }
  };
  const d = device as unknown as Record<string, unknown>;
  wrap(d.queue as Record<string, unknown>, 'onSubmittedWorkDone');
  for (const m of ['createComputePipelineAsync', 'createRenderPipelineAsync', 'popErrorScope']) wrap(d, m);
  wrap(d, 'createBuffer', (b) => { wrap(b as Record<string, unknown>, 'mapAsync'); return b; });
  wrap(d, 'createShaderModule', (m) => { wrap(m as Record<string, unknown>, 'getCompilationInfo'); return m; });
}

/** Starts the idle watcher of a Node process (an unreferenced timer: it never keeps the process alive itself). */
function watchForIdle(): void {
  if (!isNode() || watcher !== undefined) return;
  watcher = setInterval(() => {
    if (releaseWhenIdle && busy === 0 && onlyDawnKeepsAlive()) void releaseGpu();
  }, 100);
  (watcher as { unref?: () => void }).unref?.();
}

/**
 * Obtains (once per process) the WebGPU device modprec's GPU kernels run on.
 *
 * @param options - backends to try in Node
 * @returns the device with its adapter report, or `undefined` where no adapter exists
 *   ({@link gpuUnavailableReason} says why)
 * @example
 * ```ts
 * import { gpuDevice, gpuUnavailableReason } from 'modprec/gpu';
 *
 * const gpu = await gpuDevice();
 * console.log(gpu ? `${gpu.adapter.name} (${gpu.adapter.backend})` : gpuUnavailableReason());
 * ```
 * @group GPU
 */
export function gpuDevice(options: GpuDeviceOptions = {}): Promise<GpuContext | undefined> {
  contextPromise ??= trackGpuWork(acquire(options)).then((c) => {
    if (c && isNode()) {
      trackDevicePromises(c.device);
      watchForIdle();
    }
    return c;
  }, (e: unknown) => {
    unavailableReason = `acquiring the WebGPU device failed: ${(e as Error).message.split('\n')[0]}`;
    return undefined;
  });
  return contextPromise;
}

/**
 * Like {@link gpuDevice} but throws when there is no adapter.
 * @throws {@link modprec!ModprecError} `BACKEND_UNAVAILABLE` naming the reason
 * @example
 * ```ts
 * import { ModprecError } from 'modprec';
 * import { requireGpu } from 'modprec/gpu';
 *
 * try {
 *   const { adapter } = await requireGpu();
 *   console.log(`GPU kernels run on ${adapter.name}`);
 * } catch (e) {
 *   if (!(e instanceof ModprecError && e.code === 'BACKEND_UNAVAILABLE')) throw e;
 *   console.log(e.message); // why there is no adapter
 * }
 * ```
 * @group GPU
 */
export async function requireGpu(options: GpuDeviceOptions = {}): Promise<GpuContext> {
  const context = await gpuDevice(options);
  if (!context) throw new ModprecError('BACKEND_UNAVAILABLE', `no WebGPU device: ${unavailableReason}`, 'backend');
  return context;
}

let noticed = false;

/**
 * Prints the one-line fallback notice (once per process) and returns the reason.
 * @param reason - why the GPU is not used
 */
export function fallbackNotice(reason: string): string {
  if (!noticed) {
    noticed = true;
    console.warn(`modprec: GPU unavailable, running on the CPU instead (${reason})`);
  }
  return reason;
}
