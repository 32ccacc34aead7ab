/**
 * Writing Matrix Market files.
 * @module
 */
import { fail } from '../core/errors.js';
import type { CooMatrix } from '../sparse/coo-matrix.js';
import { cooMatrix } from '../sparse/coo-matrix.js';
import { cooToCsr } from '../sparse/coo-to-csr.js';
import type { CsrMatrix } from '../sparse/csr-matrix.js';
import { csrMatrix } from '../sparse/csr-matrix.js';
import { csrToDense, denseToCsr } from '../sparse/csr-dense.js';
import type { DenseMatrix } from '../sparse/dense-matrix.js';
import { denseMatrix } from '../sparse/dense-matrix.js';
import { csrLowerTriangle, isSymmetricCsr } from '../sparse/symmetric.js';
import { booleanOption, checkObject } from '../sparse/sparse-checks.js';
import { MAX_COMMENT_LINES } from './matrix-market-lines.js';
import { formatValue } from './matrix-market-numbers.js';
import type { MatrixMarketField, MatrixMarketFormat, MatrixMarketSymmetry, MatrixMarketWriteOptions } from './matrix-market-types.js';

type AnyMatrix = CooMatrix | CsrMatrix | DenseMatrix;

function oneOf<T extends string>(parameter: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly unknown[]).includes(value)) fail('INVALID_OPTION', parameter, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  return value as T;
}

/** Validates the matrix and tells which of the three kinds it is. */
function classify(matrix: AnyMatrix): { kind: 'coo'; A: CooMatrix } | { kind: 'csr'; A: CsrMatrix } | { kind: 'dense'; A: DenseMatrix } {
  const m = checkObject('matrix', matrix);
  if ('rowPtr' in m) return { kind: 'csr', A: csrMatrix(matrix as CsrMatrix) };
  if ('rowIndex' in m) return { kind: 'coo', A: cooMatrix(matrix as CooMatrix) };
  if ('data' in m) return { kind: 'dense', A: denseMatrix(matrix as DenseMatrix) };
  return fail('INVALID_VALUE', 'matrix', 'must be a COO (rowIndex), CSR (rowPtr) or dense (data, ld) matrix', matrix);
}

/** Returns a function formatting one value for the field, checking it is representable there. */
function valueWriter(field: MatrixMarketField, allowNonFinite: boolean): (value: number, where: string) => string {
  return (value, where) => {
    if (field === 'integer') {
      if (!Number.isSafeInteger(value)) fail('INVALID_VALUE', where, "must be an integer of magnitude below 2^53 for field 'integer'", value);
    } else if (!Number.isFinite(value) && !allowNonFinite) {
      fail('INVALID_VALUE', where, 'must be finite (or pass { allowNonFinite: true })', value);
    }
    return formatValue(value);
  };
}

function checkSymmetry(A: CsrMatrix, symmetry: MatrixMarketSymmetry): void {
  if (symmetry === 'general') return;
  if (A.rows !== A.cols) fail('DIMENSION_MISMATCH', 'matrix', `must be square for symmetry '${symmetry}'`, `${A.rows} x ${A.cols}`);
  if (!isSymmetricCsr(A, symmetry)) {
    const rule = symmetry === 'symmetric' ? 'A(i,j) = A(j,i)' : 'A(i,j) = -A(j,i) and a zero diagonal';
    fail('INVALID_VALUE', 'matrix', `must satisfy ${rule} exactly, entry by entry and in its pattern, for symmetry '${symmetry}'`);
  }
}

/** Exact (skew-)symmetry of a dense matrix, with the same rules as {@link isSymmetricCsr}. */
function checkDenseSymmetry(D: DenseMatrix, symmetry: MatrixMarketSymmetry): void {
  if (D.rows !== D.cols) fail('DIMENSION_MISMATCH', 'matrix', `must be square for symmetry '${symmetry}'`, `${D.rows} x ${D.cols}`);
  const skew = symmetry === 'skew-symmetric';
  for (let j = 0; j < D.cols; j++) {
    for (let i = j; i < D.rows; i++) {
      const lower = D.data[i + j * D.ld]!, upper = D.data[j + i * D.ld]!;
      const ok = !skew ? Object.is(lower, upper) : i === j ? lower === 0 : lower === -upper || (lower !== lower && upper !== upper);
      if (!ok) {
        const rule = skew ? (i === j ? 'a zero diagonal' : 'A(i,j) = -A(j,i)') : 'A(i,j) = A(j,i)';
        fail('INVALID_VALUE', `matrix(${i}, ${j})`, `must satisfy ${rule} exactly for symmetry '${symmetry}'`, lower);
      }
    }
  }
}

/**
 * Writes a matrix as a Matrix Market file; {@link readMatrixMarket} reads it back exactly.
 *
 * Coordinate files: a COO matrix is written entry by entry in its own order (duplicates included), a CSR
 * matrix row by row, a dense matrix by its nonzero entries. With `symmetry` `symmetric` / `skew-symmetric`
 * the matrix must have that symmetry exactly (see {@link isSymmetricCsr}); its lower triangle is written
 * (duplicates summed). Array files are written column by column (lower / strictly lower triangle for
 * symmetric / skew-symmetric), sparse input being expanded first. Values are written as the shortest
 * decimal that reads back to the same double; `-0` keeps its sign. Reading the file back gives the same
 * matrix bit for bit, with two exceptions in skew-symmetric files: the upper triangle is the negated lower
 * one, so a zero there comes back with the sign opposite to its mirror's; and an array file stores no diagonal,
 * so a `-0` there comes back as `+0`.
 *
 * @param matrix - a {@link CooMatrix}, {@link CsrMatrix} or {@link DenseMatrix}
 * @param options - `format`, `field`, `symmetry`, `comments`, `allowNonFinite` (see {@link MatrixMarketWriteOptions})
 * @returns the file's text, ending in a newline
 * @throws {@link ModprecError} from the matrix constructors for an invalid matrix; `INVALID_OPTION` for
 *   an unknown option value (an allowNonFinite that is not a boolean, comments that are not an array) or `pattern` with
 *   `array` or `skew-symmetric`; `DIMENSION_MISMATCH` for a
 *   non-square matrix with a symmetry; `INVALID_SIZE` naming `matrix` when the text would be longer than the longest
 *   string JavaScript can hold; `INVALID_VALUE` when the matrix lacks the requested symmetry, for a
 *   non-integer value with `integer`, more than 2^20 comments, a non-finite value without `allowNonFinite` (named `matrix.values[k]` when a
 *   general COO or CSR matrix is written from its own arrays, `matrix(i, j)` otherwise), or a comment with a line break
 * @example
 * ```ts
 * import { laplacianCsr, writeMatrixMarket } from 'modprec';
 *
 * const text = writeMatrixMarket(laplacianCsr([3, 3]), { symmetry: 'symmetric', field: 'integer' });
 * ```
 * @group Sparse & IO
 */
export function writeMatrixMarket(matrix: AnyMatrix, options: MatrixMarketWriteOptions = {}): string {
  const o = checkObject('options', options);
  const input = classify(matrix);
  const format = oneOf<MatrixMarketFormat>('options.format', o.format, ['coordinate', 'array'], input.kind === 'dense' ? 'array' : 'coordinate');
  const field = oneOf<MatrixMarketField>('options.field', o.field, ['real', 'integer', 'pattern'], 'real');
  const symmetry = oneOf<MatrixMarketSymmetry>('options.symmetry', o.symmetry, ['general', 'symmetric', 'skew-symmetric'], 'general');
  if (field === 'pattern' && format === 'array') fail('INVALID_OPTION', 'options.field', "'pattern' is only defined for format 'coordinate'", field);
  if (field === 'pattern' && symmetry === 'skew-symmetric') fail('INVALID_OPTION', 'options.field', "'pattern' cannot be 'skew-symmetric'", field);
  const comments = (o.comments === undefined ? [] : o.comments) as readonly string[];   // null is refused, as for format
  if (!Array.isArray(comments)) fail('INVALID_OPTION', 'options.comments', 'must be an array of strings', comments);
  // What the readers take (they return the comments as an array, which must stay far below V8's fatal length).
  if (comments.length > MAX_COMMENT_LINES) fail('INVALID_VALUE', 'options.comments', `must hold at most ${MAX_COMMENT_LINES} lines (the readers' limit)`, comments.length);
  // Every index, holes included (forEach skipped a hole, and the text then held '%undefined'), copied once as checked.
  const lines: string[] = [];
  for (let k = 0; k < comments.length; k++) {
    const c: unknown = comments[k];
    if (typeof c !== 'string' || /[\r\n]/.test(c)) fail('INVALID_VALUE', `options.comments[${k}]`, 'must be a string without line breaks', c);
    lines.push(c);
  }
  const value = valueWriter(field, booleanOption('options.allowNonFinite', o.allowNonFinite, false));
  try {
    return fileText(input, format, field, symmetry, lines, value);
  } catch (e) {
    // A string longer than the engine holds (2^29 − 24 characters in V8) was a bare RangeError 'Invalid string length'.
    if (e instanceof RangeError) textTooLong();
    throw e;
  }
}

function textTooLong(): never {
  return fail('INVALID_SIZE', 'matrix', 'gives a Matrix Market text (comments included) longer than the longest string JavaScript can hold');
}

/**
 * Fails when even the shortest text for `lines` data lines (`perLine` characters each: value `0`, indices `1`) after
 * `prefix` characters is longer than a string holds, before anything is converted or written: a 17000 × 17000 CSR
 * matrix written as an array built a 2.3 GB dense copy and 2.9·10^8 lines (18 s) before the string overflowed, and a
 * larger one failed allocating the copy, named 'dense matrix', which is no parameter of the writer.
 */
function checkTextFits(prefix: number, lines: number, perLine: number): void {
  const shortest = prefix + lines * perLine;
  if (shortest <= 2 ** 28) return; // every engine holds that
  try {
    'x'.repeat(shortest); // the engine's own limit (V8 2^29 − 24, others more), asked without a constant
  } catch {
    textTooLong();
  }
}

/**
 * Lines joined into a text a few thousand at a time: one array of every line ended the process for ~1.3·10^8 lines
 * (V8's fatal 'invalid size error'), where a text too long for a string is a RangeError, caught above.
 */
class LineText {
  private done = '';
  private lines: string[] = [];

  /** Appends a line (without its newline). */
  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length === 4096) this.flush();
  }

  /** Every line pushed, each ended by a newline. */
  text(): string {
    this.flush();
    return this.done;
  }

  private flush(): void {
    if (this.lines.length > 0) this.done += this.lines.join('\n') + '\n';
    this.lines = [];
  }
}

/** The file's text, from validated arguments. */
function fileText(
  input: ReturnType<typeof classify>, format: MatrixMarketFormat, field: MatrixMarketField, symmetry: MatrixMarketSymmetry,
  comments: readonly string[], value: (value: number, where: string) => string,
): string {
  const out = new LineText();
  const banner = `%%MatrixMarket matrix ${format} ${field} ${symmetry}`;
  const prefix = comments.reduce((length, c) => length + c.length + 2, banner.length + 1);
  out.push(banner);
  for (const c of comments) out.push(`%${c}`);
  if (format === 'array') {
    const { rows: n, cols } = input.A;
    if (symmetry !== 'general' && n !== cols) fail('DIMENSION_MISMATCH', 'matrix', `must be square for symmetry '${symmetry}'`, `${n} x ${cols}`);
    checkTextFits(prefix, symmetry === 'general' ? n * cols : symmetry === 'symmetric' ? (n * (n + 1)) / 2 : (n * (n - 1)) / 2, 2);
    const D = input.kind === 'dense' ? input.A : csrToDense(input.kind === 'csr' ? input.A : cooToCsr(input.A));
    if (symmetry !== 'general') checkDenseSymmetry(D, symmetry);
    out.push(`${D.rows} ${D.cols}`);
    for (let j = 0; j < D.cols; j++) {
      const first = symmetry === 'general' ? 0 : symmetry === 'symmetric' ? j : j + 1;
      for (let i = first; i < D.rows; i++) out.push(value(D.data[i + j * D.ld]!, `matrix(${i}, ${j})`));
    }
    return out.text();
  }

  const entry = (i: number, j: number, v: number, where: string): string =>
    field === 'pattern' ? `${i + 1} ${j + 1}` : `${i + 1} ${j + 1} ${value(v, where)}`;
  const perEntry = field === 'pattern' ? 4 : 6; // '1 1\n', '1 1 0\n'
  if (symmetry === 'general' && input.kind === 'coo') {
    const { rows, cols, rowIndex, colIndex, values } = input.A;
    checkTextFits(prefix, values.length, perEntry);
    out.push(`${rows} ${cols} ${values.length}`);
    for (let k = 0; k < values.length; k++) out.push(entry(rowIndex[k]!, colIndex[k]!, values[k]!, `matrix.values[${k}]`));
    return out.text();
  }
  let A = input.kind === 'csr' ? input.A : input.kind === 'coo' ? cooToCsr(input.A) : denseToCsr(input.A);
  if (symmetry !== 'general') {
    checkSymmetry(A, symmetry);
    A = csrLowerTriangle(A); // a skew matrix's explicit diagonal zeros are kept, so its pattern survives
  }
  checkTextFits(prefix, A.values.length, perEntry);
  out.push(`${A.rows} ${A.cols} ${A.values.length}`);
  // Only a general CSR matrix is written from its own arrays; otherwise t counts entries of a converted matrix (the
  // summed lower triangle, the dense input's nonzeros), so a bad value is named by its position, as in array files.
  const own = input.kind === 'csr' && symmetry === 'general';
  for (let i = 0; i < A.rows; i++) {
    for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) {
      const j = A.colIndex[t]!;
      out.push(entry(i, j, A.values[t]!, own ? `matrix.values[${t}]` : `matrix(${i}, ${j})`));
    }
  }
  return out.text();
}
