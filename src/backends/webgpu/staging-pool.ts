/**
 * Read-back staging buffers kept per device (issue 19, item 5): a DOT, NRM2 or ASUM reads a few words back on every
 * call, and creating, mapping and destroying a new MAP_READ buffer each time was host work on every call. Small
 * buffers are kept in power-of-two size classes and handed out again once unmapped; a buffer still mapped (a read in
 * flight) is never handed out, so concurrent reads each get their own. Large read-backs (whole arrays) are not kept:
 * holding their memory would cost more than creating them.
 *
 * @module
 */
import { BufferUsage, type GpuBuffer, type GpuDevice } from './webgpu-types.js';

/** The largest staging buffer kept (bytes): reads of scalars, partial sums and small vectors. */
const KEEP_BYTES = 1 << 16;
/** Free buffers kept per size class (more than one read of a class in flight at once is rare). */
const KEEP_PER_CLASS = 4;

/** Free staging buffers of each device by size class (bytes). */
const free = new WeakMap<GpuDevice, Map<number, GpuBuffer[]>>();

/** The size a staging buffer of at least `bytes` is created with: a power of two (≥ 16) while it is kept. */
function sizeClass(bytes: number): number {
  const b = Math.max(16, Math.ceil(bytes / 16) * 16);
  return b > KEEP_BYTES ? b : 2 ** Math.ceil(Math.log2(b));
}

/**
 * A MAP_READ | COPY_DST buffer of at least `bytes` bytes, unmapped: a kept one when one is free.
 * @param device - the device
 * @param bytes - the bytes it must hold
 * @returns the buffer; give it back with {@link giveStaging} once unmapped
 */
export function takeStaging(device: GpuDevice, bytes: number): GpuBuffer {
  const size = sizeClass(bytes);
  const kept = free.get(device)?.get(size)?.pop();
  return kept ?? device.createBuffer({ size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
}

/**
 * Returns a staging buffer of {@link takeStaging}, unmapped, for the next read (or destroys it when it is too
 * large to keep or its class is full).
 * @param device - the device it belongs to
 * @param buffer - the buffer
 * @param bytes - the size it was taken for
 */
export function giveStaging(device: GpuDevice, buffer: GpuBuffer, bytes: number): void {
  const size = sizeClass(bytes);
  if (size > KEEP_BYTES) {
    buffer.destroy();
    return;
  }
  let classes = free.get(device);
  if (!classes) free.set(device, (classes = new Map()));
  let list = classes.get(size);
  if (!list) classes.set(size, (list = []));
  if (list.length < KEEP_PER_CLASS) list.push(buffer);
  else buffer.destroy();
}
