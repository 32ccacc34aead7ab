/**
 * Parsing the Matrix Market banner line.
 * @module
 */
import { parseError, quoteToken } from './matrix-market-parse-error.js';
import type { LineFields } from './matrix-market-lines.js';
import type { MatrixMarketField, MatrixMarketFormat, MatrixMarketHeader, MatrixMarketSymmetry } from './matrix-market-types.js';

const BANNER_FORM = "'%%MatrixMarket matrix <coordinate|array> <real|integer|pattern> <general|symmetric|skew-symmetric>'";

/**
 * Parses the first line of a Matrix Market file. Keywords are matched case-insensitively; `double` is
 * accepted as a synonym of `real`. Combinations the format does not define are rejected: `pattern` with
 * `array` or with `skew-symmetric`; `complex` and `hermitian` are not supported.
 *
 * @param line1 - the whitespace-separated tokens of line 1 (the first few) and their count
 * @returns the header, in lower case
 * @throws {@link ModprecError} `PARSE_ERROR` (`line 1`) naming the bad token and the accepted ones
 */
export function parseBanner(line1: LineFields): MatrixMarketHeader {
  const { fields, count } = line1;
  if (count === 0 || fields[0]!.toLowerCase() !== '%%matrixmarket') {
    parseError(1, `expected the banner ${BANNER_FORM}, got ${quoteToken(fields.join(' ') + (count > fields.length ? ' ...' : ''))}`);
  }
  if (count !== 5) parseError(1, `expected 5 fields in the banner ${BANNER_FORM}, got ${count}`);
  const [, objectToken, formatToken, fieldToken, symmetryToken] = fields.map((f) => f.toLowerCase()) as [string, string, string, string, string];
  if (objectToken !== 'matrix') parseError(1, `object must be 'matrix' (vectors are not supported), got ${quoteToken(fields[1]!)}`);
  if (formatToken !== 'coordinate' && formatToken !== 'array') {
    parseError(1, `format must be 'coordinate' or 'array', got ${quoteToken(fields[2]!)}`);
  }
  let field: MatrixMarketField;
  if (fieldToken === 'real' || fieldToken === 'double') field = 'real';
  else if (fieldToken === 'integer' || fieldToken === 'pattern') field = fieldToken;
  else if (fieldToken === 'complex') return parseError(1, "field 'complex' is not supported (modprec reads real, integer and pattern matrices)");
  else return parseError(1, `field must be 'real', 'integer' or 'pattern', got ${quoteToken(fields[3]!)}`);
  if (symmetryToken === 'hermitian') parseError(1, "symmetry 'hermitian' needs complex values, which are not supported");
  if (symmetryToken !== 'general' && symmetryToken !== 'symmetric' && symmetryToken !== 'skew-symmetric') {
    parseError(1, `symmetry must be 'general', 'symmetric' or 'skew-symmetric', got ${quoteToken(fields[4]!)}`);
  }
  const format: MatrixMarketFormat = formatToken;
  const symmetry: MatrixMarketSymmetry = symmetryToken;
  if (field === 'pattern' && format === 'array') parseError(1, "field 'pattern' is only defined for the 'coordinate' format");
  if (field === 'pattern' && symmetry === 'skew-symmetric') parseError(1, "field 'pattern' cannot be 'skew-symmetric' (a pattern has no signs)");
  return { object: 'matrix', format, field, symmetry };
}
