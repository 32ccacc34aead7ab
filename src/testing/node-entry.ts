/**
 * `modprec/testing` in Node: checks that the peer dependency fast-check is installed before loading the helpers,
 * so a missing one is a {@link ModprecError} `MISSING_DEPENDENCY` that says what to install, instead of the bare
 * ERR_MODULE_NOT_FOUND a static import would raise while linking (before any code of this package could run).
 * The helpers load through require (Node ≥ 20.19 requires ES modules synchronously), which works for both
 * `import` and `require` of this entry. Bundlers and browsers take `index.js` directly (package.json `exports`).
 * @module
 */
import { createRequire } from 'node:module';
import { ModprecError } from '../core/errors.js';

const require = createRequire(import.meta.url);
try {
  require.resolve('fast-check');
} catch {
  throw new ModprecError(
    'MISSING_DEPENDENCY',
    "modprec/testing needs the package 'fast-check' (an optional peer dependency of modprec): install it with `npm install --save-dev fast-check`",
    'fast-check',
  );
}
const helpers = require('./index.js') as typeof import('./index.js');

// One name per export of index.ts (test/package/installed-package.test.ts checks the two lists agree).
export const {
  rational, ZERO, addRational, subRational, mulRational, divRational, negRational, absRational,
  compareRational, signRational, powerOfTwo, rationalToString,
  exactOf, exactSum, exactDot, exactTriangularSolve, absoluteError, relativeError, oracleRoundToFormat,
  roundRationalExact, roundRationalToFormat, roundRationalToDouble, roundRationalToInteger,
  F64_DESCRIPTOR, F32_DESCRIPTOR, F16_DESCRIPTOR, BF16_DESCRIPTOR, I8_DESCRIPTOR, I16_DESCRIPTOR, I32_DESCRIPTOR,
  resolveBinaryFormat, checkBinaryFormatDescriptor,
  representableIn, midpointCasesOf, midpointsOf, nearMidpointsOf, doubleRoundingCasesOf, nearOverflowOf,
  nearUnderflowOf, acrossBinadesOf, specialValuesOf, interestingDoublesFor,
  vectorOf, matrixOf, vectorIn, uniformUnit, uniformUnitRounded,
  lawOf, checkLaws,
  lawCorrectRounding, lawRoundTrip, lawCodec, lawMonotonic, lawTiesToEven, lawNoDoubleRounding, lawOverflow,
  lawGradualUnderflow, lawSpecialsAndSymmetry, lawInnocuousDoubleRounding, storageConversionLaws, checkStorageConversionLaws,
  doubleDoubles, doubleDoublesNearTiesOf, lawDoubleDoubleExport,
  oracleRoundToInteger, interestingDoublesForInteger, integerConversionLaws, checkIntegerConversionLaws,
  accessorLaws, checkAccessorLaws,
} = helpers;
export { ModprecError };
