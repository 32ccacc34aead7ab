/**
 * Device copies of host ranges kept between `backend: 'gpu'` calls (issue 19, item 5). A call on ranges uploads its
 * operands every time (their contents may have changed), but a new device array per call also meant a new buffer, and
 * — the kernels' plans being keyed by the arrays — new scratch buffers, uniform buffers and bind groups, and an older
 * plan evicted, on every call. Here an upload of a range whose span has the shape of an earlier one (same format, span
 * length, offset, sizes and strides) rewrites that earlier array's buffer instead (one writeBuffer), so a repeated
 * call finds its plans, uniforms and bind groups again. An array is lent to one call at a time: calls in flight
 * together each get their own. Only small arrays are kept, and few: uploading a large one costs far more than
 * creating its buffer.
 *
 * @module
 */
import { onGpuReleased } from '../webgpu/backend.js';

/** The largest array kept (bytes of its span). */
const KEEP_BYTES = 16 << 20;
/** At most this many bytes of arrays kept, and this many arrays; the least recently returned go first. */
const KEEP_TOTAL_BYTES = 64 << 20;
const KEEP_COUNT = 16;

/** What a slot holds: the call's operand (an array, view or matrix) and how to let go of its memory. */
interface Slot {
  readonly key: string;
  readonly value: object;
  /** What the call gives back (the value, or a matrix's data array). */
  readonly owner: object;
  readonly bytes: number;
  readonly destroy: () => void;
  /** Whether its memory is still there (a path that destroyed it outright leaves nothing to keep). */
  readonly alive: () => boolean;
}

/** Slots free for the next call, least recently returned first. */
let free: Slot[] = [];
/** Slots lent to a call in flight, by their owner. */
const lent = new WeakMap<object, Slot>();

// After a release there is no device: kept arrays are gone with it.
onGpuReleased(() => { free = []; });

/**
 * A kept upload of the shape `key`, lent to the caller (who refills it and gives it back with {@link giveBack}).
 * @param key - the span shape (spanShapeKey of src/backends/webgpu/device-array.ts) and what the value is
 * @returns the value, or undefined when none is free
 */
export function takeSlot<T extends object>(key: string): T | undefined {
  for (let k = free.length - 1; k >= 0; k--) {
    const slot = free[k]!;
    if (slot.key !== key) continue;
    free.splice(k, 1);
    lent.set(slot.owner, slot);
    return slot.value as T;
  }
  return undefined;
}

/**
 * Marks a new upload as one that {@link giveBack} may keep for later calls of the same shape.
 * @param key - its span shape
 * @param value - the array, view or matrix
 * @param owner - what the call will give back: the value, or a matrix's data array
 * @param bytes - the bytes of its span
 * @param destroy - releases its device memory
 * @param alive - whether its memory is still there
 * @returns the value
 */
export function lendSlot<T extends object>(key: string, value: T, owner: object, bytes: number, destroy: () => void, alive: () => boolean): T {
  if (bytes <= KEEP_BYTES) lent.set(owner, { key, value, owner, bytes, destroy, alive });
  return value;
}

/**
 * Ends a call's use of an upload: a slot is kept for the next call (the oldest kept ones are destroyed beyond the
 * limits); anything else is destroyed as before.
 * @param owner - the upload (a matrix's data array)
 * @param destroy - how to destroy it when it is not a slot
 */
export function giveBack(owner: object, destroy: () => void): void {
  const slot = lent.get(owner);
  if (!slot) {
    destroy();
    return;
  }
  lent.delete(owner);
  if (!slot.alive()) return;
  free.push(slot);
  let total = free.reduce((t, s) => t + s.bytes, 0);
  while (free.length > KEEP_COUNT || total > KEEP_TOTAL_BYTES) {
    const old = free.shift()!;
    total -= old.bytes;
    old.destroy();
  }
}
