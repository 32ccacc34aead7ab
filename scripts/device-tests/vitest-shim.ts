/**
 * The part of vitest's API the test files use, for running them where vitest is not installed: the lent GPU machine
 * gets the production dependencies only (../shared/tools/device-pack.sh). `expect` is vitest's own (chai with the
 * Jest matchers from @vitest/expect, bundled in); describe/it/hooks are a small sequential runner ({@link runAll}).
 * Not supported: snapshots, fake timers, module mocking (`vi.resetModules` is a no-op: a bundle has no module cache
 * to reset), concurrency.
 */
import { chai, JestAsymmetricMatchers, JestChaiExpect, JestExtend, ASYMMETRIC_MATCHERS_OBJECT, GLOBAL_EXPECT, getState, setState } from '@vitest/expect';
import { restoreAllMocks, spyOn, fn as mockFn } from '@vitest/spy';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

type AnyFn = (...args: any[]) => any;

/** vitest's `expect`: chai's with the Jest matchers and asymmetric matchers. */
export const expect: any = (value: unknown, message?: string) => {
  const state = getState(expect);
  setState({ assertionCalls: state.assertionCalls + 1 }, expect);
  return chai.expect(value, message);
};
Object.assign(expect, chai.expect);
Object.assign(expect, (globalThis as any)[ASYMMETRIC_MATCHERS_OBJECT]);
expect.getState = () => getState(expect);
expect.setState = (s: object) => setState(s, expect);
expect.extend = (matchers: object) => chai.expect.extend(expect, matchers);
expect.soft = expect;
expect.unreachable = (message?: string) => chai.assert.fail(`expected not to be reached${message ? `: ${message}` : ''}`);
setState({ assertionCalls: 0, isExpectingAssertions: false, expectedAssertionsNumber: null, environment: 'node', testPath: '', currentTestName: '' }, expect);
(globalThis as any)[GLOBAL_EXPECT] = expect;

interface Test { name: string; fn: AnyFn; mode: 'run' | 'skip' | 'fails' }
interface Suite {
  name: string; parent?: Suite; items: (Test | Suite)[]; skip: boolean;
  beforeAll: AnyFn[]; afterAll: AnyFn[]; beforeEach: AnyFn[]; afterEach: AnyFn[];
}
const newSuite = (name: string, parent?: Suite, skip = false): Suite => ({ name, parent, items: [], skip, beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] });

let current: Suite = newSuite('');
let finished: AnyFn[] = [];

function describeWith(skip: boolean) {
  return (name: string, body?: AnyFn): void => {
    const suite = newSuite(name, current, skip || current.skip);
    current.items.push(suite);
    const outer = current;
    current = suite;
    try { body?.(); } finally { current = outer; }
  };
}
/** vitest's `describe` (bodies run at once; `skip`, `skipIf`, `runIf`). */
export const describe: any = describeWith(false);
describe.skip = describeWith(true);
describe.skipIf = (c: unknown) => describeWith(Boolean(c));
describe.runIf = (c: unknown) => describeWith(!c);

const addTest = (mode: Test['mode']) => (name: string, fn?: AnyFn): void => {
  current.items.push({ name, fn: fn ?? (() => {}), mode: fn === undefined || current.skip ? 'skip' : mode });
};
/** Formats `it.each` names as vitest does for the common cases (%s, %i, %d, %j, $property). */
function eachName(name: string, row: unknown, index: number): string {
  const args = Array.isArray(row) ? row : [row];
  let k = 0;
  let out = name.replace(/%[sidfjo#%]/g, (m) => (m === '%%' ? '%' : m === '%#' ? String(index) : String(args[k++])));
  if (!Array.isArray(row) && row && typeof row === 'object') out = out.replace(/\$(\w+)/g, (_, p) => String((row as any)[p]));
  return out;
}
const eachOf = (mode: Test['mode']) => (table: readonly unknown[]) => (name: string, fn: AnyFn): void => {
  table.forEach((row, i) => addTest(mode)(eachName(name, row, i), () => (Array.isArray(row) ? fn(...row) : fn(row))));
};
/** vitest's `it` / `test` (`skip`, `skipIf`, `runIf`, `fails`, `each`, `todo`). */
export const it: any = addTest('run');
it.skip = addTest('skip');
it.todo = (name: string) => addTest('skip')(name);
it.fails = addTest('fails');
it.skipIf = (c: unknown) => addTest(c ? 'skip' : 'run');
it.runIf = (c: unknown) => addTest(c ? 'run' : 'skip');
it.each = eachOf('run');
it.skip.each = eachOf('skip');
export const test = it;

/** Hooks of the enclosing describe. */
export const beforeAll = (f: AnyFn): void => { current.beforeAll.push(f); };
export const afterAll = (f: AnyFn): void => { current.afterAll.push(f); };
export const beforeEach = (f: AnyFn): void => { current.beforeEach.push(f); };
export const afterEach = (f: AnyFn): void => { current.afterEach.push(f); };
export const onTestFinished = (f: AnyFn): void => { finished.push(f); };

const stubbedEnv = new Map<string, string | undefined>();
/** The `vi` helpers the tests use: spies, environment stubs; module resets are no-ops in a bundle. */
export const vi = {
  spyOn, fn: mockFn, restoreAllMocks,
  resetModules: () => vi,
  stubEnv: (name: string, value: string) => { if (!stubbedEnv.has(name)) stubbedEnv.set(name, process.env[name]); process.env[name] = value; return vi; },
  unstubAllEnvs: () => { for (const [k, v] of stubbedEnv) { if (v === undefined) delete process.env[k]; else process.env[k] = v; } stubbedEnv.clear(); return vi; },
};

/** One test's outcome. */
export interface Outcome { file: string; name: string; status: 'passed' | 'failed' | 'skipped'; ms: number; error?: string }

/** Starts collecting a new file's tests (its module's top-level describe/it calls go here). */
export function beginFile(): void { current = newSuite(''); }

/** Runs the collected tests of the current file in order, hooks included, and returns their outcomes. */
export async function runAll(file: string, log: (o: Outcome) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const chain = (s: Suite | undefined): Suite[] => (s ? [...chain(s.parent), s] : []);
  const record = (o: Outcome): void => { outcomes.push(o); log(o); };
  const message = (e: unknown): string => {
    if (!(e instanceof Error)) return String(e);
    // fast-check puts the property's own failure in `cause`.
    const cause = e.cause instanceof Error ? `\ncaused by: ${e.cause.message}\n${(e.cause.stack ?? '').split('\n').slice(1, 4).join('\n')}` : '';
    return `${e.message}\n${(e.stack ?? '').split('\n').slice(1, 6).join('\n')}${cause}`;
  };
  async function runSuite(s: Suite, prefix: string): Promise<void> {
    const hasRunnable = (x: Suite): boolean => x.items.some((i) => ('items' in i ? hasRunnable(i) : i.mode !== 'skip'));
    if (!hasRunnable(s)) { for (const i of s.items) if (!('items' in i)) record({ file, name: prefix + i.name, status: 'skipped', ms: 0 }); return; }
    try { for (const h of s.beforeAll) await h(); } catch (e) { record({ file, name: `${prefix}(beforeAll)`, status: 'failed', ms: 0, error: message(e) }); return; }
    for (const item of s.items) {
      if ('items' in item) { await runSuite(item, `${prefix}${item.name} > `); continue; }
      const name = prefix + item.name;
      if (item.mode === 'skip') { record({ file, name, status: 'skipped', ms: 0 }); continue; }
      const start = performance.now();
      let error: unknown;
      let threw = false;
      finished = [];
      setState({ assertionCalls: 0, currentTestName: name, testPath: file }, expect);
      try {
        for (const x of chain(s)) for (const h of x.beforeEach) await h();
        try { await item.fn({ expect, skip: () => { throw new Error('skipped'); } }); } catch (e) { threw = true; error = e; }
        for (const x of chain(s).reverse()) for (const h of x.afterEach) await h();
        for (const f of finished.reverse()) await f();
      } catch (e) { threw = true; error ??= e; }
      const ms = performance.now() - start;
      const ok = item.mode === 'fails' ? threw : !threw;
      record({ file, name, status: ok ? 'passed' : 'failed', ms, error: ok ? undefined : item.mode === 'fails' ? 'expected to fail, passed' : message(error) });
    }
    for (const h of s.afterAll) { try { await h(); } catch (e) { record({ file, name: `${prefix}(afterAll)`, status: 'failed', ms: 0, error: message(e) }); } }
  }
  await runSuite(current, '');
  return outcomes;
}
