/**
 * Ranges whose storage lives in the WebAssembly memory of the CPU kernels, which then read and write it in place
 * instead of copying it chunk by chunk into their staging area (a second pass through the cache).
 *
 * The memory is one non-shared WebAssembly.Memory, and growing such a memory detaches every typed array over it.
 * So an arena is a fixed block reserved up front: creating it grows the memory once (above the kernels' staging
 * area, which keeps `staging` bytes below it), and while any arena is live the memory never grows again — a
 * kernel call whose staging would need more, or a new arena that does not fit the memory as it is, is a typed
 * `BACKEND_LIMIT` error raised before anything is written, never a silent detach. Releasing every arena lifts the
 * freeze; a released arena's arrays must not be used again (the next arena reuses its bytes, a later growth
 * detaches them).
 * @module
 */
import { fail } from '../../core/errors.js';
import { growMemoryTo, setStagingLimit, stagingHighWater, wasmMemory } from './wasm-runtime.js';

/** Bytes kept for the kernels' staging area below an arena unless told otherwise (4 MiB: every kernel's chunks, TRSV to n ≈ 250 000 in f64). */
export const DEFAULT_STAGING_BYTES = 4 * 2 ** 20;
/** Arena blocks and allocations start on a cache line. */
const ALIGN = 64;
/** Bytes after each arena that nothing allocates: SIMD loads past an operand's last element stay inside the memory. */
const GUARD = 64;
/** The largest memory a wasm32 module addresses. */
const MAX_MEMORY = 2 ** 32;

type TypedArrayConstructor = new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView & { length: number };

const live: WasmArena[] = [];
/** The token only {@link wasmArena} passes to the {@link WasmArena} constructor. */
const RESERVED = Symbol('WasmArena');

/**
 * A fixed block of the CPU kernels' WebAssembly memory that the range factories allocate storage in (their
 * `memory` option); the WebAssembly kernels read and write such ranges in place. Made by {@link wasmArena}.
 * @group Ranges & accessors
 */
export class WasmArena {
  /** Byte address of the block in the WebAssembly memory. */
  readonly base: number;
  /** Bytes of the block. */
  readonly byteLength: number;
  private used = 0;
  private released = false;

  /**
   * Not for direct use: reserve an arena with {@link wasmArena}.
   * @throws {@link ModprecError} `INVALID_OPTION` naming `WasmArena` when called from outside this module
   */
  constructor(token: symbol, base: number, byteLength: number) {
    // new WasmArena(0, n) made an arena over memory nothing had reserved (the staging area, another arena's ranges):
    // only wasmArena, which reserves the block, may make one.
    if (token !== RESERVED) fail('INVALID_OPTION', 'WasmArena', 'must be reserved by wasmArena');
    this.base = base;
    this.byteLength = byteLength;
  }

  /** Bytes not yet allocated. */
  get bytesLeft(): number {
    return this.released ? 0 : this.byteLength - this.used;
  }

  /**
   * A zeroed typed array of `length` entries of type `type` over the block (the factories' `memory` option calls
   * this; direct use gives a `data` buffer for a factory).
   * @throws {@link ModprecError} `BACKEND_LIMIT` naming `memory` when the block has too few bytes left;
   *   `INVALID_OPTION` naming `memory` after {@link WasmArena.release}
   */
  allocate<A extends ArrayBufferView>(type: new (buffer: ArrayBuffer, byteOffset: number, length: number) => A, length: number): A {
    if (this.released) fail('INVALID_OPTION', 'memory', 'is a released wasmArena');
    const C = type as unknown as TypedArrayConstructor & { BYTES_PER_ELEMENT: number };
    const bytes = length * C.BYTES_PER_ELEMENT;
    const at = Math.ceil(this.used / ALIGN) * ALIGN;
    if (at + bytes > this.byteLength) {
      fail('BACKEND_LIMIT', 'memory', `needs ${bytes} bytes, and the wasmArena has ${this.byteLength - at} left of its ${this.byteLength}`);
    }
    this.used = at + bytes;
    const a = new C(wasmMemory().buffer as ArrayBuffer, this.base + at, length);
    new Uint8Array(a.buffer, a.byteOffset, bytes).fill(0);
    return a as unknown as A;
  }

  /**
   * Gives the block back: its arrays must not be used afterwards (a later arena reuses the bytes; once no arena
   * is live the memory may grow, which detaches them). Releasing twice does nothing.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    live.splice(live.indexOf(this), 1);
    setStagingLimit(live.length > 0 ? Math.min(...live.map((a) => a.base)) : Infinity);
  }
}

/**
 * Options of {@link wasmArena}.
 * @group Ranges & accessors
 */
export interface WasmArenaOptions {
  /**
   * Bytes kept below the arena for the kernels' staging (default 4 MiB, or more if a kernel already used more). A
   * call that needs more staging while the arena is live is a `BACKEND_LIMIT` error naming `wasmArena`.
   */
  staging?: number;
}

/**
 * Reserves `bytes` of the CPU kernels' WebAssembly memory for ranges whose storage the WebAssembly kernels read and
 * write in place (no staging copy; DOT, ASUM, NRM2, GEMV, the AXPY family and ELL SpMV, unit-stride operands): pass it as the
 * `memory` option of {@link vector}, {@link matrix} or a layout factory. Results are bit for bit those of the same
 * call on ranges in ordinary memory. The memory never grows while an arena is live (growing would detach the
 * arena's arrays), so reserve what the ranges need up front.
 * @param bytes - the block's size
 * @param options - see {@link WasmArenaOptions}
 * @throws {@link ModprecError} `INVALID_SIZE` naming `bytes` or `options.staging`; `INVALID_OPTION` naming `options`
 *   when it is not an object; `BACKEND_LIMIT` naming `bytes`
 *   when another live arena leaves too little room (the memory cannot grow under it) or the memory cannot grow to
 *   this size (4 GiB at most)
 * @example
 * ```ts
 * import { wasmArena, vector, dot, formats } from 'modprec';
 *
 * const arena = wasmArena(2 ** 20);
 * const x = vector([1, 2, 3], { storage: formats.f32, memory: arena });
 * const y = vector([4, 5, 6], { memory: arena });
 * dot(x, y); // → 32
 * arena.release();
 * ```
 * @group Ranges & accessors
 */
export function wasmArena(bytes: number, options: WasmArenaOptions = {}): WasmArena {
  if (!Number.isSafeInteger(bytes) || bytes < 0) fail('INVALID_SIZE', 'bytes', 'must be a non-negative integer', bytes);
  // As the kernels' options: wasmArena(64, null) threw a TypeError reading `staging`.
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const staging = options.staging ?? DEFAULT_STAGING_BYTES;
  if (!Number.isSafeInteger(staging) || staging < 0) fail('INVALID_SIZE', 'options.staging', 'must be a non-negative integer', staging);
  const top = live.length > 0 ? Math.max(...live.map((a) => a.base + a.byteLength + GUARD)) : Math.max(staging, stagingHighWater());
  const base = Math.ceil(top / ALIGN) * ALIGN;
  const end = base + bytes + GUARD;
  if (end > MAX_MEMORY) fail('BACKEND_LIMIT', 'bytes', `needs the WebAssembly memory to reach ${end} bytes, beyond its 4 GiB`, bytes);
  if (end > wasmMemory().buffer.byteLength) {
    if (live.length > 0) {
      fail('BACKEND_LIMIT', 'bytes', 'does not fit the WebAssembly memory, which cannot grow while another wasmArena is live (growing detaches its arrays): reserve one arena for all ranges, or release the others first', bytes);
    }
    try {
      growMemoryTo(end);
    } catch (e) {
      if (e instanceof RangeError) fail('BACKEND_LIMIT', 'bytes', `needs the WebAssembly memory to grow to ${end} bytes, which this engine refuses`, bytes);
      throw e;
    }
  }
  const arena = new WasmArena(RESERVED, base, bytes);
  live.push(arena);
  setStagingLimit(Math.min(...live.map((a) => a.base)));
  return arena;
}

/**
 * The byte address in the WebAssembly memory of storage element `element` of `data`, or -1 when `data` is not a
 * view of that memory (an ordinary array: the kernels stage it).
 * @param data - an accessor's storage typed array
 * @param element - a storage element index (double-double: an element is two entries)
 * @param bytes - bytes per storage element
 */
export function wasmAddressOf(data: unknown, element: number, bytes: number): number {
  const d = data as ArrayBufferView | undefined;
  return d !== undefined && d.buffer === wasmMemory().buffer ? d.byteOffset + element * bytes : -1;
}
