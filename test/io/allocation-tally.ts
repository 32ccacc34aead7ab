/** The bytes a call allocates in typed arrays, for tests of `maxBytes` as a limit on the peak. */
import { vi } from 'vitest';

/**
 * Counts the bytes of every Int32Array / Float64Array made with `new` and of every typed-array `slice` from now on
 * (undo with vi.unstubAllGlobals() and vi.restoreAllMocks()). Unreachable arrays are counted too: the tally is what
 * was allocated, an upper bound on the peak that a garbage collection could lower, which maxBytes must not rely on.
 */
export function countAllocations(): { bytes: number } {
  const tally = { bytes: 0 };
  for (const name of ['Int32Array', 'Float64Array'] as const) {
    const real = globalThis[name];
    vi.stubGlobal(name, new Proxy(real, {
      construct(target, args: unknown[]) {
        const made = Reflect.construct(target, args) as Int32Array | Float64Array;
        if (typeof args[0] === 'number') tally.bytes += made.byteLength;
        return made;
      },
    }));
  }
  const typedArrayPrototype = Object.getPrototypeOf(Int32Array.prototype) as { slice: (this: Int32Array, a?: number, b?: number) => Int32Array };
  const slice = typedArrayPrototype.slice;
  vi.spyOn(typedArrayPrototype, 'slice').mockImplementation(function (this: Int32Array, a?: number, b?: number) {
    const copy = slice.call(this, a, b);
    tally.bytes += copy.byteLength;
    return copy;
  });
  return tally;
}
