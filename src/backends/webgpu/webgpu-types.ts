/**
 * The small slice of the WebGPU API modprec calls, typed locally (TypeScript's DOM library has no WebGPU
 * types, and depending on `@webgpu/types` for a dozen members is not worth it).
 *
 * @module
 */

/** Buffer usage flags (numeric values fixed by the WebGPU specification). */
export const BufferUsage = { MAP_READ: 0x0001, COPY_SRC: 0x0004, COPY_DST: 0x0008, UNIFORM: 0x0040, STORAGE: 0x0080 } as const;

/** A device buffer. */
export interface GpuBuffer {
  readonly size: number;
  destroy(): void;
  mapAsync(mode: number, offset?: number, size?: number): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
}

/** A bind group entry: a buffer, optionally a window of it. */
export interface GpuBindGroupEntry {
  binding: number;
  resource: { buffer: GpuBuffer; offset?: number; size?: number };
}

/** A compute pass encoder. */
export interface GpuComputePass {
  setPipeline(pipeline: unknown): void;
  setBindGroup(index: number, group: unknown): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

/** A command encoder. */
export interface GpuCommandEncoder {
  /** `descriptor`: `timestampWrites` where GPU timestamps are on (gpu-timestamps.ts). */
  beginComputePass(descriptor?: object): GpuComputePass;
  copyBufferToBuffer(source: GpuBuffer, sourceOffset: number, destination: GpuBuffer, destinationOffset: number, size: number): void;
  finish(): unknown;
}

/** The device members modprec uses. */
export interface GpuDevice {
  /** Releases the device (Dawn then stops polling it, so Node can exit). */
  destroy(): void;
  readonly limits: Record<string, number>;
  readonly queue: {
    writeBuffer(buffer: GpuBuffer, offset: number, data: ArrayBufferView | ArrayBuffer, dataOffset?: number, size?: number): void;
    submit(commands: unknown[]): void;
    onSubmittedWorkDone(): Promise<void>;
  };
  createBuffer(descriptor: { size: number; usage: number; mappedAtCreation?: boolean }): GpuBuffer;
  createBindGroup(descriptor: { layout: unknown; entries: GpuBindGroupEntry[] }): unknown;
  createCommandEncoder(): GpuCommandEncoder;
  pushErrorScope(filter: 'validation' | 'out-of-memory'): void;
  popErrorScope(): Promise<{ message: string } | null>;
}

/** The adapter members modprec uses. */
export interface GpuAdapter {
  readonly features: Iterable<string>;
  readonly limits: Record<string, number>;
  readonly info?: Record<string, string>;
}
