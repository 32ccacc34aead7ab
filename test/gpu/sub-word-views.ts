/**
 * Fixtures of the sub-word output-view tests (lane-store-views.test.ts): the guide's E5M2 with a writable GPU part that
 * declares `hostBytes`, the 16-bit built-ins, 1-D views over a shared typed array of sentinel lanes, and the comparison
 * of a GPU run's lanes with a CPU run's.
 */
import { expect } from 'vitest';
import { typedArrayStorage, registerFormat, range, rowMajor, formats, type Range } from '../../src/index.js';
import { decodeE5M2, e5m2LanePart, encodeE5M2 } from './e5m2-gpu-writer.js';

/** The guide's E5M2 GPU part, writable, its words the bytes of the CPU's Uint8Array (element 4w + j in byte j of word w). */
const e5m2Part = e5m2LanePart('e5m2-lanes');

/** E5M2 registered with that part (`e5m2-lanes`). */
export const e5m2Lanes = registerFormat({
  name: 'e5m2-lanes',
  storage: {
    ...typedArrayStorage<Uint8Array>({
      name: 'e5m2-lanes', array: Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344,
      encodeHelper: { name: 'e5m2LanesEncode', fn: encodeE5M2 }, decodeHelper: { name: 'e5m2LanesDecode', fn: decodeE5M2 },
    }),
    gpu: e5m2Part,
  },
});

/** A sub-word format of the tests: its storage and the width of its lanes. */
export interface SubWordFormat {
  readonly name: 'e5m2' | 'f16' | 'bf16';
  readonly storage: typeof e5m2Lanes | typeof formats.f16 | typeof formats.bf16;
  readonly bits: 8 | 16;
}

/** The formats under test: 8-bit lanes (four a word) and 16-bit ones (two a word). */
export const SUB_WORD_FORMATS: readonly SubWordFormat[] = [
  { name: 'e5m2', storage: e5m2Lanes, bits: 8 },
  { name: 'f16', storage: formats.f16, bits: 16 },
  { name: 'bf16', storage: formats.bf16, bits: 16 },
];

/** A typed array of `size` lanes of the format, lane k holding a sentinel of its own (NaNs and finite values alike). */
export function sentinelLanes(f: SubWordFormat, size: number): Uint8Array | Uint16Array {
  return f.bits === 8 ? Uint8Array.from({ length: size }, (_, k) => (k * 37 + 11) & 255) : Uint16Array.from({ length: size }, (_, k) => (k * 7919 + 0x7c01) & 0xffff);
}

/** The 1-D range of `n` elements at `offset`, `stride` over `data` (a view of a span; a matrix column where stride is its row length). */
export function laneView(f: SubWordFormat, data: Uint8Array | Uint16Array, n: number, offset: number, stride: number, arithmetic = formats.f32): Range<1, any> {
  return range(rowMajor<1>({ size: [n], storage: f.storage as never, arithmetic, data: data as never, stride, offset }));
}

/** Span lanes of a view. */
export function lanesOf(view: { offset: number; stride: number; n: number }): number[] {
  return Array.from({ length: view.n }, (_, i) => view.offset + i * view.stride);
}

/** Whether lane bits are a NaN of the format. */
function isNaNLane(f: SubWordFormat, b: number): boolean {
  if (f.name === 'e5m2') return (b & 0x7c) === 0x7c && (b & 3) !== 0;
  if (f.name === 'f16') return (b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0;
  return (b & 0x7f80) === 0x7f80 && (b & 0x7f) !== 0;
}

/**
 * Every lane of the GPU run's span equals the CPU run's: bit for bit, except that a written lane holding a zero or a
 * NaN is compared without its sign — the update's multiply-adds start from +0 on the GPU (−1.5·0 + 0 is +0 there, −0
 * on the CPU) and IEEE 754 leaves the sign of an operation's NaN open (user-format.test.ts); no store decides either.
 * Lanes no view covers (`written` false) must be the CPU's exactly: their sentinels.
 */
export function expectLanes(f: SubWordFormat, gpu: Uint8Array | Uint16Array, cpu: Uint8Array | Uint16Array, written: ReadonlySet<number>, what: string): void {
  const sign = f.bits === 8 ? 0x80 : 0x8000;
  // ±0 alike; and every NaN code alike (IEEE 754 leaves an operation's NaN sign and payload to the implementation:
  // the NVIDIA driver's NaN is 0x7FFFFFFF, llvmpipe's 0x7FC00000, and a 16-bit store keeps the top of it).
  const loose = (b: number): number => (isNaNLane(f, b) ? -1 : (b & ~sign) === 0 ? 0 : b);
  for (let k = 0; k < cpu.length; k++) {
    const [g, c] = written.has(k) ? [loose(gpu[k]!), loose(cpu[k]!)] : [gpu[k]!, cpu[k]!];
    if (g !== c) expect(`${what}: lane ${k}${written.has(k) ? '' : ' (not in a view)'} = 0x${gpu[k]!.toString(16)}`).toBe(`${what}: lane ${k}${written.has(k) ? '' : ' (not in a view)'} = 0x${cpu[k]!.toString(16)}`);
  }
}
