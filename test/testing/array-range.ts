/**
 * A minimal 1-D range over a plain array (fp32 rounding on write), with switchable bugs, to show that the accessor
 * laws can fail. `bug`: 'none', 'no-rounding', 'spills' (a write also writes the next element), 'sub-ignores-begin',
 * 'sub-from-root' (a sub-range's begin taken from the root, not from its parent), 'const-writes',
 * 'const-sub-writable' (a sub-range of a const range accepts writes), 'unchecked' (no bounds check on get or set).
 */
import type { RangeLike } from '../../src/testing/index.js';
import type { SpanLike } from '../../src/core/span.js';

export function arrayRange(data: number[], offset: number, length: number, bug: string, writable = true): RangeLike {
  const store = (x: number) => (bug === 'no-rounding' ? x : Math.fround(x));
  const check = (i: number) => {
    if (bug !== 'unchecked' && !(Number.isInteger(i) && i >= 0 && i < length)) throw new RangeError(`index ${i} outside [0, ${length})`);
  };
  return {
    dimensionality: 1,
    length: () => length,
    get: (i: number) => { check(i); return data[offset + i]; },
    set: ((i: number, x: number) => {
      check(i);
      if (!writable && bug !== 'const-writes') throw new Error('read-only');
      data[offset + i] = store(x);
      if (bug === 'spills' && offset + i + 1 < data.length) data[offset + i + 1] = store(x);
    }) as never,
    sub: (s: SpanLike) => {
      const begin = typeof s === 'number' ? s : s.begin;
      const end = typeof s === 'number' ? s + 1 : s.end;
      const at = bug === 'sub-ignores-begin' ? offset : bug === 'sub-from-root' ? begin : offset + begin;
      return arrayRange(data, at, end - begin, bug, writable || bug === 'const-sub-writable');
    },
    toConst: () => arrayRange(data, offset, length, bug, false),
  } as RangeLike;
}
