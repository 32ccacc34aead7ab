/**
 * The engine of test/core/public-hostile-arguments.test.ts: hostile values, the outcome of one call, and the
 * variants of a valid call (one argument, property or element replaced; frozen and getter-only copies).
 */
import { ModprecError } from '../../../src/core/errors.js';
import { matrix, vector } from '../../../src/core/vectors.js';
import { formats } from '../../../src/index.js';

/** What a call did: returned (possibly a resolved promise, or an error the function documents), or threw / rejected. */
export type Outcome =
  | { readonly kind: 'returned' }
  | { readonly kind: 'threw'; readonly typed: boolean; readonly code: string | undefined; readonly description: string };

/** Hostile values by label; each call makes fresh ones (ranges are written to, objects frozen). */
export function hostileValues(): readonly (readonly [string, () => unknown])[] {
  return [
    ['undefined', () => undefined],
    ['null', () => null],
    ['Symbol()', () => Symbol('hostile')],
    ['1n', () => 1n],
    ['NaN', () => NaN],
    ['-1', () => -1],
    ['2**53', () => 2 ** 53],
    ["'3'", () => '3'],
    ['{}', () => ({})],
    ['[]', () => []],
    ['a frozen object', () => Object.freeze({ size: [2], length: 2 })],
    ['an object with getters', () => ({ get size() { return [2, 2]; }, get length() { return 2; } })],
  ];
}

/** Ranges that are wrong in many places: another dimensionality, another format, read-only, empty. */
export function hostileRanges(): readonly (readonly [string, () => unknown])[] {
  return [
    ['a 2×2 range', () => matrix(2, 2, (i, j) => i + j + 1)],
    ['a 3-vector', () => vector([1, 2, 3])],
    ['an empty vector', () => vector(0)],
    ['a read-only vector', () => vector([1, 2]).toConst()],
    ['a double-double vector', () => vector([1, 2], { storage: formats.dd })],
    ['an RNS vector', () => vector([1, 2], { storage: formats.rns106 })],
    ['an int8 vector', () => vector([1, 2], { storage: formats.i8 })],
  ];
}

/** Whether `e` is a ModprecError with a code and a non-empty parameter name. */
export function isTyped(e: unknown): boolean {
  return e instanceof ModprecError && typeof e.code === 'string' && typeof e.parameter === 'string' && e.parameter.length > 0;
}

function threw(e: unknown): Outcome {
  const description = e instanceof ModprecError
    ? `ModprecError ${e.code} naming ${String(e.parameter)}: ${e.message}`
    : `${(e as Error)?.name ?? typeof e}: ${String((e as Error)?.message ?? e).slice(0, 160)}`;
  return { kind: 'threw', typed: isTyped(e), code: e instanceof ModprecError ? e.code : undefined, description };
}

/** Runs `call`, awaiting a returned promise. */
export async function outcomeOf(call: () => unknown, documented?: (e: unknown) => boolean): Promise<Outcome> {
  let result: unknown;
  try {
    result = call();
  } catch (e) {
    return documented?.(e) ? { kind: 'returned' } : threw(e);
  }
  if (result instanceof Promise) {
    try { await result; } catch (e) { return documented?.(e) ? { kind: 'returned' } : threw(e); }
  }
  return { kind: 'returned' };
}

/** A valid call of one public function, from which the variants are made. */
export interface Template {
  readonly name: string;
  /** Fresh valid arguments (ranges are written to, so each call gets its own). */
  readonly args: () => unknown[];
  readonly call: (...args: unknown[]) => unknown;
  /** Positions to try beyond the valid call's (optional arguments it leaves out). */
  readonly extra?: number;
  /** Positions left as they are (a method's receiver). */
  readonly keep?: readonly number[];
  /** Positions replaced whole only: objects the library made and recognises by identity (moduli sets). */
  readonly whole?: readonly number[];
  /** Positions of output objects: a frozen or getter-only copy may be refused (typed), not read as the plain one. */
  readonly written?: readonly number[];
  /** An error the function documents for a well-formed call (a law check's failed law), not a bad-input error. */
  readonly documented?: (e: unknown) => boolean;
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** A copy of plain objects and arrays (everything else shared), frozen throughout. */
function frozenCopy(v: unknown): unknown {
  if (Array.isArray(v)) return Object.freeze(v.map(frozenCopy));
  if (isPlain(v)) return Object.freeze(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, frozenCopy(x)])));
  return v;
}

/** A copy of plain objects whose properties are getters (nested plain objects too). */
function getterCopy(v: unknown): unknown {
  if (!isPlain(v)) return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    const copy = getterCopy(x);
    Object.defineProperty(out, k, { get: () => copy, enumerable: true });
  }
  return out;
}

/** Copies `v` with the value at `path` (property names or indices) replaced. */
function replaced(v: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(v)) { const c = v.slice(); c[head as number] = replaced(v[head as number], rest, value); return c; }
  return { ...(v as object), [head!]: replaced((v as Record<string | number, unknown>)[head!], rest, value) };
}

/** Paths of the properties and elements inside `v` to replace: two levels into plain objects, three elements of arrays. */
function innerPaths(v: unknown, depth: number): (string | number)[][] {
  if (depth === 0) return [];
  const keys: (string | number)[] = Array.isArray(v) ? v.slice(0, 3).map((_, i) => i) : isPlain(v) ? Object.keys(v) : [];
  const children = (k: string | number) => (v as Record<string | number, unknown>)[k];
  return keys.flatMap((k) => [[k], ...innerPaths(children(k), depth - 1).map((p) => [k, ...p])]);
}

/** Byte copies of every typed array reachable from `root` (through own properties, to a depth of six). */
function snapshot(root: unknown): (() => boolean)[] {
  const seen = new Set<unknown>();
  const checks: (() => boolean)[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v !== 'object' || v === null || seen.has(v) || depth > 6) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      const before = bytes.slice();
      checks.push(() => bytes.every((b, i) => b === before[i]));
      return;
    }
    for (const k of Object.keys(v)) {
      let child: unknown;
      try { child = (v as Record<string, unknown>)[k]; } catch { continue; }
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return checks;
}

/** What a template's sweep found. */
export interface SweepReport {
  readonly validOutcome: Outcome;
  readonly variants: number;
  readonly failures: string[];
}

/** Runs a template's valid call and every variant of it; see the test file's header. */
export async function sweepTemplate(t: Template): Promise<SweepReport> {
  const failures: string[] = [];
  const validOutcome = await outcomeOf(() => t.call(...t.args()), t.documented);
  if (validOutcome.kind === 'threw') return { validOutcome, variants: 0, failures: [validOutcome.description] };
  const sample = t.args();
  const hostile = [...hostileValues(), ...hostileRanges()];
  let variants = 0;
  const run = async (label: string, mutate: (args: unknown[]) => unknown[], expected?: Outcome): Promise<void> => {
    variants++;
    const args = mutate(t.args());
    const unchanged = snapshot(args);
    const o = await outcomeOf(() => t.call(...args), t.documented);
    if (o.kind === 'threw' && !o.typed) failures.push(`${label}: ${o.description}`);
    if (o.kind === 'threw' && unchanged.some((same) => !same())) failures.push(`${label}: threw (${o.description}) after writing`);
    if (expected && (o.kind !== expected.kind || (o.kind === 'threw' && expected.kind === 'threw' && o.code !== expected.code))) {
      failures.push(`${label}: ${o.kind === 'threw' ? o.description : 'returned'}, where the plain object ${expected.kind === 'threw' ? expected.description : 'returned'}`);
    }
  };
  const positions = sample.length + (t.extra ?? 0);
  for (let at = 0; at < positions; at++) {
    if (t.keep?.includes(at)) continue;
    for (const [label, make] of hostile) {
      await run(`argument ${at} = ${label}`, (a) => { const c = a.slice(); c[at] = make(); return c; });
    }
    if (t.whole?.includes(at)) continue;
    for (const path of innerPaths(sample[at], 2)) {
      for (const [label, make] of hostile) {
        await run(`argument ${at}.${path.join('.')} = ${label}`, (a) => { const c = a.slice(); c[at] = replaced(c[at], path, make()); return c; });
      }
    }
    const same = t.written?.includes(at) ? undefined : validOutcome;
    if (isPlain(sample[at]) || Array.isArray(sample[at])) {
      await run(`argument ${at} frozen`, (a) => { const c = a.slice(); c[at] = frozenCopy(c[at]); return c; }, same);
    }
    if (isPlain(sample[at])) {
      await run(`argument ${at} with getters`, (a) => { const c = a.slice(); c[at] = getterCopy(c[at]); return c; }, same);
    }
  }
  return { validOutcome, variants, failures };
}
