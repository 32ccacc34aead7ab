/**
 * modprec: precision-decoupled linear algebra. Numbers are stored in one format and computed on in another.
 * @packageDocumentation
 */
export { ModprecError, type ModprecErrorCode } from './errors.js';
export * from './formats/index.js';
export * from './formats/convert/index.js';
export { span, type Span, type SpanLike } from './span.js';
export { Range, range } from './range.js';
export { vector, matrix, toArray, type FormatOptions } from './vectors.js';
export * from '../accessors/index.js';
export * from '../kernels/index.js';
export * from './sparse/index.js';
export * from './io/matrix-market.js';
export { luFactor, luSolve, applyPivots, type LuFactors } from './lu.js';
