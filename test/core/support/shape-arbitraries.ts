/** Random shapes, padded strides, offsets and an index inside the shape, for the layout tests. */
import fc from 'fast-check';

/** A shape of `dims` extents in [1, 5]. */
export function shapeOf(dims: number): fc.Arbitrary<number[]> {
  return fc.array(fc.integer({ min: 1, max: 5 }), { minLength: dims, maxLength: dims });
}

/** A shape plus padding for each non-contiguous stride, an offset, and one index of the shape. */
export interface LayoutDraw {
  readonly size: number[];
  readonly padding: number[];
  readonly offset: number;
  readonly written: number[];
}

/** A {@link LayoutDraw} of `dims` dimensions. */
export function layoutDraw(dims: number): fc.Arbitrary<LayoutDraw> {
  return shapeOf(dims).chain((size) => fc.record({
    size: fc.constant(size),
    padding: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: Math.max(0, dims - 1), maxLength: Math.max(0, dims - 1) }),
    offset: fc.integer({ min: 0, max: 4 }),
    written: fc.tuple(...size.map((s) => fc.integer({ min: 0, max: s - 1 }))),
  }));
}
