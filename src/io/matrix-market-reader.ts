/**
 * Reading Matrix Market files (NIST, "The Matrix Market Exchange Formats: Initial Design", 1996).
 * @module
 */
import { fail } from '../core/errors.js';
import { cooMatrix } from '../sparse/coo-matrix.js';
import { denseLength, denseMatrix } from '../sparse/dense-matrix.js';
import { allocateFloat64, allocateInt32, booleanOption, checkObject, MAX_SPARSE_INDEX } from '../sparse/sparse-checks.js';
import { parseBanner } from './matrix-market-banner.js';
import { parseCount, parseIndex, parseValue } from './matrix-market-numbers.js';
import { LineCursor, lineFields } from './matrix-market-lines.js';
import { parseError, quoteToken } from './matrix-market-parse-error.js';
import type {
  MatrixMarketArrayData, MatrixMarketCoordinateData, MatrixMarketData, MatrixMarketHeader, MatrixMarketReadOptions,
} from './matrix-market-types.js';

/**
 * Reads a Matrix Market file.
 *
 * Supported: `%%MatrixMarket matrix coordinate|array real|integer|pattern general|symmetric|skew-symmetric`
 * (keywords in any case; `double` means `real`). Comment lines (first non-blank character `%`, at most 2^20 of
 * them) and blank lines may appear anywhere after the banner; lines may end in `\n` or `\r\n`; fields are separated by
 * spaces or tabs; one entry per line. Numbers: `1`, `+1`, `-2.5`, `.5`, `5.`, `1.5e-3`, `1E+6`. Not
 * accepted: Fortran `D` exponents (the error says how to fix them), `complex`, `hermitian`, `vector`.
 * NaN and infinities only with `allowNonFinite`.
 *
 * Symmetric files must hold only entries on or below the diagonal (`row ≥ col`); skew-symmetric ones only
 * entries below it, except that an explicit zero on the diagonal is accepted. The returned matrix is the
 * full matrix: for `coordinate` files a COO matrix whose off-diagonal stored entries are each followed by
 * their mirror (negated for skew-symmetric; a diagonal entry has none, so its three arrays are views of the first
 * entries of arrays sized for 2·entries, as `maxBytes` counted them — no copy); for `array` files a dense column-major matrix (a symmetric array
 * file stores the lower triangle column by column, a skew-symmetric one the strictly lower triangle). A
 * `pattern` file's values are 1. Duplicate positions in a coordinate file are kept (COO sums them).
 *
 * @param text - the whole file: a string, or its bytes (a `Uint8Array` such as Node's `Buffer` from
 *   `readFileSync(path)`), decoded as UTF-8 (a byte sequence that is not UTF-8 reads as U+FFFD)
 * @param options - `allowNonFinite`, `maxBytes`
 * @returns the header, sizes, comments and the matrix (see {@link MatrixMarketData})
 * @throws {@link ModprecError} `PARSE_ERROR` with `parameter` `"line <n>"` and a message saying what was
 *   expected for a malformed file (bad banner, size line, field count, number, index outside the declared
 *   size, entry above the diagonal of a symmetric file, nonzero diagonal in a skew-symmetric one, fewer or
 *   more entries than declared); `INVALID_SIZE`, before any allocation, when the size line asks for more than
 *   `options.maxBytes` (default 2 GiB), naming its largest term (`rows`, `cols` or `entries`), and when the engine
 *   refuses an allocation within it (naming `entries`, or the larger of `rows` and `cols` for an array file);
 *   `INVALID_VALUE` when `text` is neither a string nor a `Uint8Array`, or `options` not an object; `INVALID_SIZE` naming
 *   `text` for bytes that decode to a longer string than JavaScript holds; `INVALID_OPTION` for a bad maxBytes or
 *   an allowNonFinite that is not a boolean
 * @example
 * ```ts
 * import { readMatrixMarket } from 'modprec';
 *
 * const file = readMatrixMarket('%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 1 -1\n');
 * file.header.symmetry; // → 'symmetric'
 * // a coordinate file gives a COO matrix: entries (0,0,4), (1,0,-1) and the mirrored (0,1,-1)
 * file.format === 'coordinate' && file.matrix.values; // → Float64Array(3) [ 4, -1, -1 ]
 * ```
 * @group Sparse & IO
 */
export function readMatrixMarket(text: string | Uint8Array, options: MatrixMarketReadOptions = {}): MatrixMarketData {
  return readMatrixMarketPlanned(text, options, readerBytes);
}

/**
 * {@link readMatrixMarket} with the bytes the whole operation will allocate given by `planned` (the reader's own
 * arrays plus whatever the caller converts them into), checked against `options.maxBytes` before allocating.
 * @param text - the whole file, a string or UTF-8 bytes
 * @param options - as {@link readMatrixMarket}
 * @param planned - bytes the operation allocates for this header and size line
 * @returns as {@link readMatrixMarket}
 * @throws {@link ModprecError} as {@link readMatrixMarket}
 * @example
 * ```ts
 * // a reader that will also build a dense copy: count it too
 * readMatrixMarketPlanned(text, {}, (h, rows, cols, entries) => readerBytes(h, rows, cols, entries) + 8 * rows * cols);
 * ```
 */
export function readMatrixMarketPlanned(text: string | Uint8Array, options: MatrixMarketReadOptions, planned: PlannedBytes): MatrixMarketData {
  text = fileText(text);
  // A boolean or nothing: 1 or 'true' were read as false, and a file with NaN refused though NaN was asked for.
  const allowNonFinite = booleanOption('options.allowNonFinite', checkObject('options', options).allowNonFinite, false);
  const maxBytes = checkMaxBytes(options.maxBytes);
  const cursor = new LineCursor(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const header = parseBanner(lineFields(cursor.nextLine()!));
  const sizeLine = cursor.nextData();
  const expected = header.format === 'coordinate' ? "'rows cols entries'" : "'rows cols'";
  if (sizeLine === undefined) return parseError(cursor.lastLine, `end of file: expected the size line ${expected}`);
  const { fields, line } = sizeLine;
  const count = header.format === 'coordinate' ? 3 : 2;
  if (sizeLine.count !== count) parseError(line, `expected ${count} fields in the size line ${expected}, got ${sizeLine.count}`);
  const rows = parseCount(fields[0]!, line, 'rows', MAX_SPARSE_INDEX);
  const cols = parseCount(fields[1]!, line, 'cols', MAX_SPARSE_INDEX);
  if (header.symmetry !== 'general' && rows !== cols) {
    parseError(line, `a ${header.symmetry} matrix must be square, got ${rows} x ${cols}`);
  }
  const entries = header.format === 'coordinate' ? parseCount(fields[2]!, line, 'entries', MAX_SPARSE_INDEX) : 0;
  // A count the file cannot hold is a corrupt file (PARSE_ERROR); one it can hold may still need too much memory.
  checkRoom(cursor, header.format === 'coordinate' ? entries : arrayEntries(header, rows, cols), line);
  checkPlannedBytes(planned, header, rows, cols, entries, maxBytes, line);
  return header.format === 'coordinate'
    ? readCoordinate(header, rows, cols, entries, line, cursor, allowNonFinite)
    : readArray(header, rows, cols, line, cursor, allowNonFinite);
}

/**
 * The file as a string: a string as given, bytes (a `Uint8Array`, so also Node's `Buffer`) decoded as UTF-8. A byte
 * sequence that is not UTF-8 becomes U+FFFD: an error where it stands in a data line, kept in a comment (old files
 * have Latin-1 names there). The byte-order mark is left to the string path, so only one is skipped either way.
 */
function fileText(text: unknown): string {
  if (typeof text === 'string') return text;
  if (!(text instanceof Uint8Array)) return fail('INVALID_VALUE', 'text', 'must be a string or a Uint8Array of UTF-8 bytes', text);
  // Browsers refuse to decode a view of shared memory; a copy is not shared.
  const bytes = typeof SharedArrayBuffer !== 'undefined' && text.buffer instanceof SharedArrayBuffer ? text.slice() : text;
  try {
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  } catch {
    // The one failure left: more characters than the longest string the engine holds (2^29 − 24 in V8; Node throws
    // an Error coded ERR_STRING_TOO_LONG, browsers a RangeError).
    return fail('INVALID_SIZE', 'text', 'decodes to a longer string than JavaScript can hold', text.length);
  }
}

/** Bytes an operation on a Matrix Market file allocates, from its header and size line (entries: coordinate only). */
export type PlannedBytes = (header: MatrixMarketHeader, rows: number, cols: number, entries: number) => number;

/** Default of {@link MatrixMarketReadOptions.maxBytes}: 2 GiB. */
export const DEFAULT_MAX_BYTES = 2 ** 31;

/**
 * Entries a coordinate file expands to, at most (each off-diagonal entry of a symmetric file gets its mirror).
 * @param header - the banner
 * @param entries - the entries the size line declares
 * @returns the largest number of entries of the full matrix
 * @example
 * ```ts
 * expandedEntries({ object: 'matrix', format: 'coordinate', field: 'real', symmetry: 'symmetric' }, 10); // 20
 * ```
 */
export function expandedEntries(header: MatrixMarketHeader, entries: number): number {
  return header.symmetry === 'general' ? entries : 2 * entries;
}

/**
 * Bytes {@link readMatrixMarket} allocates: a COO matrix (two Int32 and one Float64 per entry) or a dense one.
 * @param header - the banner
 * @param rows - rows from the size line
 * @param cols - columns from the size line
 * @param entries - entries from the size line (coordinate files)
 * @returns bytes
 * @example
 * ```ts
 * readerBytes({ object: 'matrix', format: 'array', field: 'real', symmetry: 'general' }, 1000, 1000, 0); // 8e6
 * ```
 */
export function readerBytes(header: MatrixMarketHeader, rows: number, cols: number, entries: number): number {
  // an array file: the dense array's own length (0 for 0 rows: a 0 × 2^31−1 file was refused as 17 GB)
  return header.format === 'coordinate' ? 16 * expandedEntries(header, entries) : 8 * denseLength(rows, cols, Math.max(1, rows));
}

function checkMaxBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_BYTES;
  if (typeof value !== 'number' || !(value >= 0)) fail('INVALID_OPTION', 'options.maxBytes', 'must be a non-negative number of bytes (or Infinity)', value);
  return value;
}

/** Refuses, before any allocation, a size line whose matrix would need more than `maxBytes`; names its largest term. */
function checkPlannedBytes(
  planned: PlannedBytes, header: MatrixMarketHeader, rows: number, cols: number, entries: number, maxBytes: number, line: number,
): void {
  const bytes = planned(header, rows, cols, entries);
  if (bytes <= maxBytes) return;
  // The term that costs the most bytes (what the operation would allocate without it).
  const share = {
    rows: bytes - planned(header, 0, cols, entries),
    cols: bytes - planned(header, rows, 0, entries),
    entries: header.format === 'coordinate' ? bytes - planned(header, rows, cols, 0) : -1,
  };
  // rows and cols of a dense array cost the same (each share is all of it): the larger size is named
  const largest = share.entries >= share.rows && share.entries >= share.cols ? 'entries'
    : share.rows > share.cols || (share.rows === share.cols && rows > cols) ? 'rows' : 'cols';
  const declared = header.format === 'coordinate' ? `${rows} x ${cols} with ${entries} entries` : `${rows} x ${cols}`;
  fail('INVALID_SIZE', largest, `(line ${line}: ${declared}) needs ${bytes} bytes, more than options.maxBytes = ${maxBytes}`, largest === 'entries' ? entries : largest === 'rows' ? rows : cols);
}

/** Fails unless `entries` data lines could still follow (so no allocation is sized by a corrupt count). */
function checkRoom(cursor: LineCursor, entries: number, sizeLine: number): void {
  const left = cursor.linesLeft(entries);
  if (left < entries) {
    parseError(sizeLine, `the size line declares ${entries} entries, but only ${left} ${left === 1 ? 'line follows' : 'lines follow'}`);
  }
}

/** After the last declared entry only blank and comment lines may follow. */
function checkNoMoreEntries(cursor: LineCursor, entries: number, sizeLine: number): void {
  const extra = cursor.nextData();
  if (extra !== undefined) parseError(extra.line, `more entries than the ${entries} declared on line ${sizeLine}`);
}

/** Values an array file stores: all of them, or the (strictly, for skew-symmetric) lower triangle. */
function arrayEntries(header: MatrixMarketHeader, rows: number, cols: number): number {
  const n = rows;
  return header.symmetry === 'general' ? rows * cols : header.symmetry === 'symmetric' ? (n * (n + 1)) / 2 : (n * (n - 1)) / 2;
}

function readCoordinate(
  header: MatrixMarketHeader, rows: number, cols: number, entries: number, sizeLine: number,
  cursor: LineCursor, allowNonFinite: boolean,
): MatrixMarketCoordinateData {
  const pattern = header.field === 'pattern';
  const integer = header.field === 'integer';
  const mirror = header.symmetry !== 'general';
  const skew = header.symmetry === 'skew-symmetric';
  const fieldCount = pattern ? 2 : 3;
  const fieldNames = pattern ? "'row col'" : "'row col value'";
  const capacity = mirror ? 2 * entries : entries;
  // Within maxBytes, the engine may still refuse (maxBytes: Infinity, or little memory): INVALID_SIZE naming entries.
  const rowIndex = allocateInt32('entries', capacity);
  const colIndex = allocateInt32('entries', capacity);
  const values = allocateFloat64('entries', capacity);
  let out = 0;
  for (let e = 0; e < entries; e++) {
    const data = cursor.nextData();
    if (data === undefined) parseError(cursor.lastLine, `end of file: expected ${entries} entries as declared on line ${sizeLine}, found ${e}`);
    const { fields, line } = data;
    if (data.count !== fieldCount) parseError(line, `expected ${fieldCount} fields ${fieldNames}, got ${data.count}`);
    const i = parseIndex(fields[0]!, line, 'row', rows);
    const j = parseIndex(fields[1]!, line, 'column', cols);
    const v = pattern ? 1 : parseValue(fields[2]!, line, integer, allowNonFinite);
    if (mirror && i < j) {
      parseError(line, `entry (${i + 1}, ${j + 1}) lies above the diagonal; a ${header.symmetry} file stores only the lower triangle (row >= col)`);
    }
    if (skew && i === j && v !== 0) {
      parseError(line, `diagonal entry (${i + 1}, ${j + 1}) is ${quoteToken(fields[2]!)}; the diagonal of a skew-symmetric matrix is zero`);
    }
    rowIndex[out] = i; colIndex[out] = j; values[out] = v; out++;
    if (mirror && i !== j) { rowIndex[out] = j; colIndex[out] = i; values[out] = skew ? -v : v; out++; }
  }
  checkNoMoreEntries(cursor, entries, sizeLine);
  // Views of the first `out` entries, not copies: a diagonal entry has no mirror, and `.slice(0, out)` allocated
  // up to 16·out more bytes than the planned 16·capacity (a symmetric file with one diagonal entry peaked at about
  // twice maxBytes). The arrays keep their capacity's buffers, which maxBytes counted.
  const matrix = cooMatrix({
    rows, cols,
    rowIndex: out === capacity ? rowIndex : rowIndex.subarray(0, out),
    colIndex: out === capacity ? colIndex : colIndex.subarray(0, out),
    values: out === capacity ? values : values.subarray(0, out),
  });
  return { format: 'coordinate', header, rows, cols, storedEntries: entries, comments: cursor.comments, matrix };
}

function readArray(
  header: MatrixMarketHeader, rows: number, cols: number, sizeLine: number,
  cursor: LineCursor, allowNonFinite: boolean,
): MatrixMarketArrayData {
  const entries = arrayEntries(header, rows, cols);
  const ld = Math.max(1, rows);
  // Within maxBytes, the engine may still refuse: INVALID_SIZE naming the larger size, as the maxBytes check does.
  const data = allocateFloat64(rows >= cols ? 'rows' : 'cols', denseLength(rows, cols, ld));
  const integer = header.field === 'integer';
  let e = 0;
  const readValue = (): number => {
    const next = cursor.nextData();
    if (next === undefined) parseError(cursor.lastLine, `end of file: expected ${entries} values as declared on line ${sizeLine}, found ${e}`);
    if (next.count !== 1) parseError(next.line, `expected 1 field 'value', got ${next.count}`);
    e++;
    return parseValue(next.fields[0]!, next.line, integer, allowNonFinite);
  };
  // No rows, no values: a 0 × 2^31−1 file walked its two billion empty columns (seconds per read).
  for (let j = 0; j < (rows === 0 ? 0 : cols); j++) {
    if (header.symmetry === 'general') {
      for (let i = 0; i < rows; i++) data[i + j * ld] = readValue();
    } else {
      const skew = header.symmetry === 'skew-symmetric';
      for (let i = skew ? j + 1 : j; i < rows; i++) {
        const v = readValue();
        data[i + j * ld] = v;
        data[j + i * ld] = skew ? -v : v; // the mirror; the diagonal of a skew file stays 0
      }
    }
  }
  checkNoMoreEntries(cursor, entries, sizeLine);
  return { format: 'array', header, rows, cols, comments: cursor.comments, matrix: denseMatrix({ rows, cols, ld, data }) };
}
