/**
 * Walking the lines of a Matrix Market file one at a time.
 *
 * The file is not split into an array of lines: V8 ends the process ("Fatal JavaScript invalid size error", which no
 * catch sees) for an array of about 1.3·10^8 elements or more, and a 200 MB text of blank lines has 2·10^8 of them.
 * @module
 */
import { parseError } from './matrix-market-parse-error.js';

/**
 * Fields kept from a line: the most any line of the format holds is 5 (the banner). Those past it are counted, not
 * collected: a line of 1.4·10^8 fields (a 280 MB file) made an array that ended the process.
 */
export const KEPT_FIELDS = 6;

/** A line's first {@link KEPT_FIELDS} fields, and how many it has in all. */
export interface LineFields {
  /** The first fields (at most {@link KEPT_FIELDS}). */
  readonly fields: string[];
  /** Every field of the line. */
  readonly count: number;
}

const FIELD = /[^ \t]+/g;
/** Lines up to this length are split by a regular expression (every real line is); longer ones are scanned. */
const SHORT_LINE = 4096;

function isBlank(code: number): boolean {
  return code === 32 || code === 9; // space, tab
}

/**
 * Most comment lines a file may hold: the comments are returned as an array, which must stay far below V8's fatal
 * array length. Real files hold a few dozen.
 */
export const MAX_COMMENT_LINES = 2 ** 20;

/** The lines of a file, read on demand; blank and comment lines skipped by {@link LineCursor.nextData}. */
export class LineCursor {
  private at = 0; // where the next line starts in the text
  private line = 0; // 1-based number of the last line read
  /** The comment lines passed so far, without their `%`. */
  readonly comments: string[] = [];

  /** @param text - the whole file (any byte-order mark removed) */
  constructor(private readonly text: string) {}

  /** 1-based number of the last line read; at the end of the file, the file's last line. */
  get lastLine(): number {
    return this.line;
  }

  /**
   * The next line without its line ending (`\n` or `\r\n`); `undefined` at the end of the file. Line 1 always exists
   * (an empty text is one empty line); a final newline ends a line and starts none.
   * @throws {@link ModprecError} `PARSE_ERROR` for a carriage return inside the line
   */
  nextLine(): string | undefined {
    if (this.line > 0 && this.at >= this.text.length) return undefined;
    const end = this.text.indexOf('\n', this.at);
    const stop = end < 0 ? this.text.length : end;
    let line = this.text.slice(this.at, stop);
    this.at = stop + 1;
    this.line++;
    if (line.endsWith('\r')) line = line.slice(0, -1); // Windows line endings
    if (line.includes('\r')) parseError(this.line, 'carriage return inside a line; lines must end in \\n or \\r\\n (old Mac \\r line endings are not supported)');
    return line;
  }

  /**
   * How many lines follow the last one read, counted up to `most` (so a count the size line takes from a corrupt
   * file costs no more than the file's own length).
   * @param most - stop counting here
   * @returns min(most, lines left)
   */
  linesLeft(most: number): number {
    let count = 0;
    for (let at = this.at; count < most && at < this.text.length; count++) {
      const end = this.text.indexOf('\n', at);
      at = end < 0 ? this.text.length : end + 1;
    }
    return count;
  }

  /** {@link nextLine} past empty lines without slicing them (a file of 10^8 newlines took seconds a line at a time). */
  private skipEmptyLines(): string | undefined {
    while (this.line > 0 && this.at < this.text.length && this.text.charCodeAt(this.at) === 10) {
      this.at++;
      this.line++;
    }
    return this.nextLine();
  }

  /**
   * The fields of the next line holding data, and its 1-based number; `undefined` at the end of the file.
   * @throws {@link ModprecError} `PARSE_ERROR` for a carriage return inside a line, or past {@link MAX_COMMENT_LINES}
   */
  nextData(): (LineFields & { line: number }) | undefined {
    for (let text = this.skipEmptyLines(); text !== undefined; text = this.skipEmptyLines()) {
      let first = 0;
      while (first < text.length && isBlank(text.charCodeAt(first))) first++;
      if (first === text.length) continue; // blank line
      if (text.charCodeAt(first) === 37) { // '%': a comment, kept whole and never split into fields
        if (this.comments.length === MAX_COMMENT_LINES) parseError(this.line, `more than ${MAX_COMMENT_LINES} comment lines`);
        this.comments.push(text.slice(first + 1));
        continue;
      }
      const { fields, count } = lineFields(text);
      return { fields, count, line: this.line };
    }
    return undefined;
  }
}

/**
 * The fields of a line, separated by spaces and tabs: the first {@link KEPT_FIELDS} of them, and their count.
 * @param line - one line
 * @returns its first fields and how many it has (none for a blank line)
 */
export function lineFields(line: string): LineFields {
  if (line.length <= SHORT_LINE) {
    const fields = line.match(FIELD) ?? []; // at most SHORT_LINE / 2 fields: the engine's own split, the fast path
    return { fields: fields.length > KEPT_FIELDS ? fields.slice(0, KEPT_FIELDS) : fields, count: fields.length };
  }
  const fields: string[] = [];
  let count = 0;
  for (let at = 0; at < line.length;) {
    while (at < line.length && isBlank(line.charCodeAt(at))) at++;
    if (at === line.length) break;
    const start = at;
    while (at < line.length && !isBlank(line.charCodeAt(at))) at++;
    if (count < KEPT_FIELDS) fields.push(line.slice(start, at));
    count++;
  }
  return { fields, count };
}
