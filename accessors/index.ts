/**
 * Accessors: the layer that owns size, strides and storage and converts between storage and arithmetic.
 * @module
 */
export { Accessor } from './accessor.js';
export type { AccessorInit, AccessorSignature, Dimensionality, IndexAndValue, LayoutName, ScaleInfo, Tuple } from './accessor.js';
export type { LayoutOptions, StorageMemory } from './layout-options.js';
export { rowMajor, reducedRowMajor } from './row-major.js';
export { colMajor, reducedColMajor } from './col-major.js';
export { blockColMajor } from './block-col-major.js';
export { strided } from './strided.js';
export { scaledReducedRowMajor, scaledReducedColMajor, fitScales, fitScale } from './scaled-reduced.js';
export type { ScaledOptions } from './scaled-reduced.js';
