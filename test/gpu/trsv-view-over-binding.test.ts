/**
 * TRSV's x as a strided view of a span larger than one storage binding (a lowered limit, so llvmpipe takes this path
 * with small arrays): the solve reads b from a gathered copy of the view's elements and writes the solution into the
 * span in place — in windows of its elements where the view's extent is over the binding too — with no packed twin
 * (issue 14). Every view element must hold the packed solve's bits under the same limit (the same passes but the last:
 * NaN compared as NaN, another program writes it), every other element of the span its old bits, and the storage must
 * keep no twin.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deviceView, setBindingLimitForTests, toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** 256 KiB: the inverted diagonal blocks (bound whole) fit at n ≤ 150, block size 128, ff; a span of x is made larger. */
const LIMIT = 256 * 1024;

const BYTES = { f32: 4, f16: 2, bf16: 2, f64: 8 } as const;
type Name = keyof typeof BYTES;

function ints(n: number, seed: number, lo: number, hi: number): number[] {
  let s = seed >>> 0 || 1;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return lo + ((s >>> 16) % (hi - lo + 1));
  });
}

/** The bytes of element e of a format's words. */
function elementBytes(words: Uint32Array, name: Name, e: number): number[] {
  const b = BYTES[name];
  return [...new Uint8Array(words.buffer, words.byteOffset + e * b, b)];
}

/** Whether an element's bytes are a NaN of the format (little-endian). */
function isNaNBytes(bytes: number[], name: Name): boolean {
  const v = name === 'f32' ? new Float32Array(Uint8Array.from(bytes).buffer)[0]!
    : name === 'f64' ? new Float64Array(Uint8Array.from(bytes).buffer)[0]!
      : NaN;
  if (name === 'f16') return (bytes[1]! & 0x7c) === 0x7c && ((bytes[1]! & 3) | bytes[0]!) !== 0;
  if (name === 'bf16') return (bytes[1]! & 0x7f) === 0x7f && (bytes[0]! & 0x80) !== 0 && (bytes[0]! & 0x7f) !== 0;
  return Number.isNaN(v);
}

describe('TRSV on a view x whose span is over one storage binding', () => {
  it('solves in place (b gathered, x written in windows of its extent where needed): the packed solve\'s bits, the rest of the span kept, no twin', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.record({
        format: fc.constantFrom<Name>('f32', 'f16', 'bf16', 'f64'),
        // 1, a block and a bit, up to past one 128-element window of the final pass.
        n: fc.oneof(fc.integer({ min: 1, max: 150 }), fc.constantFrom(1, 64, 65, 128, 129, 150)),
        // Unit strides (16-bit: the word store or half words), small ones, the largest whose 128 elements fit a binding
        // (with n ≥ 129 the extent passes the limit: the final pass goes in windows) and one more (refused there).
        step: fc.constantFrom<number | 'max' | '-max' | 'over'>(1, -1, 2, -3, 5, 'max', '-max', 'over'),
        pad: fc.integer({ min: 0, max: 3 }),
        uplo: fc.constantFrom<'L' | 'U'>('L', 'U'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
        arithmetic: fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), blockSize: fc.constantFrom(64, 128),
        // A zero pivot sends the solve to its IEEE redo, which reads b again (from the gathered copy).
        zeroPivot: fc.boolean(), seed: fc.nat(1000),
      }),
      async (c) => {
        const label = JSON.stringify(c);
        const { format, n } = c;
        const bytes = BYTES[format];
        const max = Math.floor((LIMIT / bytes - 129) / 127);
        const stride = c.step === 'max' ? max : c.step === '-max' ? -max : c.step === 'over' ? max + 1 : c.step;
        const offset = c.pad + (stride < 0 ? (n - 1) * -stride : 0);
        const extent = offset + (stride > 0 ? (n - 1) * stride : 0) + 1;
        // The span always over the limit: the view's elements and then distinct small sentinels.
        const size = Math.max(extent + c.pad, Math.ceil(LIMIT / bytes) + 300);
        const init = Float64Array.from({ length: size }, (_, k) => 1000 + (k % 997));
        const b = ints(n, c.seed, -4, 4);
        for (let i = 0; i < n; i++) init[offset + i * stride] = b[i]!;
        const a = new Float64Array(n * n);
        const t = ints(n * n, c.seed + 1, -3, 3);
        for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) a[i + j * n] = i === j ? 1 + (j % 3) : t[i + j * n]! / 8;
        if (c.zeroPivot) a[Math.floor(n / 2) * (n + 1)] = 0;
        const A = deviceMatrix(await toDevice(a, { format: 'f32' }), n, n);
        const span = await toDevice(init, { format });
        const before = (await span.encoded()).words.slice();
        const packed = await toDevice(Float64Array.from(b), { format });
        const x = deviceView(span, offset, n, stride);
        setBindingLimitForTests(LIMIT);
        // The windows of the gather (and of the final pass) start on multiples of 128 elements: a view whose 128
        // elements' extent is over the limit is refused, naming the limit, before anything is written.
        const refused = (extent - c.pad) * bytes > LIMIT && (127 * Math.abs(stride) + 1 + 128) * bytes > LIMIT;
        try {
          const options = { arithmetic: c.arithmetic, blockSize: c.blockSize };
          if (refused) {
            await expect(gpuTrsv({ A, x, uplo: c.uplo, trans: c.trans }, options), label).rejects.toMatchObject({ code: 'BACKEND_LIMIT', parameter: 'maxStorageBufferBindingSize' });
          } else {
            await gpuTrsv({ A, x, uplo: c.uplo, trans: c.trans }, options);
            await gpuTrsv({ A, x: packed, uplo: c.uplo, trans: c.trans }, options);
          }
        } finally {
          setBindingLimitForTests(undefined);
        }
        // The span as it must be: its old bytes, the view's elements the packed solve's (a NaN there: any NaN).
        const got = new Uint8Array((await span.encoded()).words.buffer).subarray(0, size * bytes);
        const want = new Uint8Array(before.buffer).slice(0, size * bytes);
        const solved = (await packed.encoded()).words;
        if (!refused) {
          for (let i = 0; i < n; i++) {
            const e = offset + i * stride;
            const w = elementBytes(solved, format, i);
            const g = [...got.subarray(e * bytes, (e + 1) * bytes)];
            want.set(isNaNBytes(w, format) && isNaNBytes(g, format) ? g : w, e * bytes);
          }
        }
        const first = got.findIndex((v, k) => v !== want[k]);
        const e = Math.floor(first / bytes);
        expect(first < 0 ? 'equal' : `element ${e} (view element ${(e - offset) / stride}): ${[...got.subarray(e * bytes, (e + 1) * bytes)]} for ${[...want.subarray(e * bytes, (e + 1) * bytes)]}`, label).toBe('equal');
        expect(span.storage.twins, 'a packed twin').toBeUndefined();
        for (const d of [span, packed, A.data]) d.destroy();
      },
    ), {
      numRuns: 10,
      // Always: an extent over the limit (the final pass in windows; a zero pivot: the redo reads the gathered b), a
      // 16-bit word store over windows, and a stride the windows refuse.
      examples: [
        [{ format: 'f16', n: 150, step: '-max', pad: 1, uplo: 'U', trans: 'T', arithmetic: 'ff', blockSize: 128, zeroPivot: true, seed: 3 }],
        [{ format: 'bf16', n: 129, step: 1, pad: 2, uplo: 'L', trans: 'N', arithmetic: 'f32', blockSize: 64, zeroPivot: false, seed: 4 }],
        [{ format: 'f32', n: 140, step: 'max', pad: 0, uplo: 'L', trans: 'N', arithmetic: 'f32', blockSize: 64, zeroPivot: true, seed: 5 }],
        [{ format: 'f64', n: 150, step: 'over', pad: 3, uplo: 'U', trans: 'N', arithmetic: 'ff', blockSize: 64, zeroPivot: false, seed: 6 }],
      ],
    });
  });
});
