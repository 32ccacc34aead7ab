/**
 * The readers take a file's bytes as well as its text: `readFileSync(path)` gives a Buffer (a Uint8Array), and passing
 * it was INVALID_VALUE 'text must be a string'. Bytes are decoded as UTF-8, so they read exactly as the decoded string
 * does — the same matrix, or the same error on the same line.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readMatrixMarket, readMatrixMarketCsr, writeMatrixMarket } from '../../src/io/matrix-market.js';
import { ModprecError } from '../../src/core/errors.js';
import { cooArbitrary, expectModprec } from '../sparse/sparse-arbitraries.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const banner = '%%MatrixMarket matrix coordinate real general';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The outcome of a read: the data, or the error's code, parameter and message. */
function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    return { code: e.code, parameter: e.parameter, message: e.message };
  }
}

describe('readMatrixMarket and readMatrixMarketCsr on bytes', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it('read a file\'s UTF-8 bytes exactly as its text: same matrix, or same error on the same line', () => {
    // Valid files (any comments, non-ASCII included) and the same files with one character replaced or cut short.
    const file = fc.tuple(cooArbitrary({ maxSize: 4, maxEntries: 6 }), fc.array(fc.string({ unit: 'grapheme', maxLength: 6 }).filter((c) => !/[\r\n]/.test(c)), { maxLength: 2 }))
      .map(([A, comments]) => writeMatrixMarket(A, { comments }));
    const damaged = fc.tuple(file, fc.nat(), fc.constantFrom('', ' ', '\n', '%', 'é', 'x', '1', '\r', '\uFEFF'), fc.boolean())
      .map(([text, at, c, cut]) => { const k = at % (text.length + 1); return cut ? text.slice(0, k) : text.slice(0, k) + c + text.slice(k + 1); })
      .filter((text) => !LONE_SURROGATE.test(text)); // a cut pair is no text UTF-8 can hold (TextEncoder writes U+FFFD)
    fc.assert(fc.property(fc.oneof(file, damaged), (text) => {
      const bytes = utf8(text);
      expect(outcome(() => readMatrixMarket(bytes))).toEqual(outcome(() => readMatrixMarket(text)));
      expect(outcome(() => readMatrixMarketCsr(bytes))).toEqual(outcome(() => readMatrixMarketCsr(text)));
    }), { numRuns: 300 });
  });

  it('a Buffer from node:buffer, a view into a larger buffer and a view of shared memory read the same', () => {
    const text = `${banner}\n% école\n2 2 2\n1 1 1.5\n2 1 -2\n`;
    const expected = readMatrixMarket(text);
    expect(readMatrixMarket(Buffer.from(text, 'utf8'))).toEqual(expected);
    const inner = utf8(text), padded = new Uint8Array(inner.length + 8);
    padded.set(inner, 3);
    expect(readMatrixMarket(padded.subarray(3, 3 + inner.length))).toEqual(expected);
    const shared = new Uint8Array(new SharedArrayBuffer(inner.length));
    shared.set(inner);
    expect(readMatrixMarket(shared)).toEqual(expected);
    expect(expected.comments).toEqual([' école']);
  });

  it('skips one byte-order mark, as for a string: a second one is a PARSE_ERROR on line 1', () => {
    const text = `${banner}\n1 1 1\n1 1 7\n`;
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf);
    expect(readMatrixMarket(new Uint8Array([...bom, ...utf8(text)]))).toEqual(readMatrixMarket(text));
    expectModprec(() => readMatrixMarket(new Uint8Array([...bom, ...bom, ...utf8(text)])), 'PARSE_ERROR', 'line 1');
  });

  it('bytes that are not UTF-8 read as U+FFFD: kept in a comment, a PARSE_ERROR naming the line in data', () => {
    const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0)); // é is 0xE9, not UTF-8 on its own
    expect(readMatrixMarket(latin1(`${banner}\n% Universit\u00e9\n1 1 1\n1 1 7\n`)).comments).toEqual([' Universit\uFFFD']);
    const e = expectModprec(() => readMatrixMarket(latin1(`${banner}\n1 1 1\n1 1 7\u00e9\n`)), 'PARSE_ERROR', 'line 3');
    expect(e.message).toContain('\uFFFD');
  });

  it('anything but a string or a Uint8Array is INVALID_VALUE naming text, from both readers', () => {
    const bytes = utf8(`${banner}\n0 0 0\n`);
    for (const text of [bytes.buffer, new Int8Array(bytes), new DataView(bytes.buffer), Array.from(bytes), null, undefined]) {
      expectModprec(() => readMatrixMarket(text as unknown as string), 'INVALID_VALUE', 'text');
      expectModprec(() => readMatrixMarketCsr(text as unknown as string), 'INVALID_VALUE', 'text');
    }
  });

  it('bytes decoding to more than the longest string are INVALID_SIZE naming text (the decoder\'s own error, stubbed)', () => {
    // Node refuses a string over 2^29 − 24 characters with ERR_STRING_TOO_LONG; making one here would take half a GB.
    vi.stubGlobal('TextDecoder', class { decode(): string { throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), { code: 'ERR_STRING_TOO_LONG' }); } });
    expectModprec(() => readMatrixMarket(utf8(`${banner}\n0 0 0\n`)), 'INVALID_SIZE', 'text');
  });
});
