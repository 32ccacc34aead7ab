/**
 * Registers the double-double formats with the core's format registry: `dd` (interleaved storage + DD
 * arithmetic) and `dd-split` (split storage, computed in DD by default). Importing this module is enough.
 * @module
 */
import { registerBuiltinFormat, type Format } from '../common/registry.js';
import { ddArithmetic, type DdValue } from './dd-arithmetic.js';
import { ddStorage, ddSplitStorage } from './dd-storage.js';

/**
 * Double-double: interleaved storage (16 bytes per value) and double-double arithmetic.
 * @group Double-double
 */
export const dd: Format<DdValue> = registerBuiltinFormat<DdValue>({ name: 'dd', storage: ddStorage, arithmetic: ddArithmetic });
/**
 * Double-double with split hi/lo storage arrays; computed in double-double unless told otherwise.
 * @group Double-double
 */
export const ddSplit: Format<DdValue> = registerBuiltinFormat<DdValue>({ name: 'dd-split', storage: ddSplitStorage, arithmetic: ddArithmetic });

import { registerAccumulation } from '../../../kernels/shared/accumulation.js';
import { pairwiseAccumulation } from './pairwise-accumulation.js';
import { neumaierAccumulation } from './neumaier-accumulation.js';
import { dot2Accumulation } from './dot2-accumulation.js';
import { ddAccumulation } from './dd-accumulation.js';

registerAccumulation(pairwiseAccumulation);
registerAccumulation(neumaierAccumulation);
registerAccumulation(dot2Accumulation);
registerAccumulation(ddAccumulation);
