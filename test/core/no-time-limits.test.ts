/**
 * Issue #15 item 7: the suite once failed on a loaded machine because of fixed time limits. vitest.config.ts sets
 * none; this test keeps new tests from adding their own (a per-test/hook limit, or a Playwright wait limit).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'fixtures' ? [] : files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Lines that set a time limit: `}, 60_000);` closing an it/hook, or `timeout: N` with N > 0. */
function timeLimitLines(source: string): string[] {
  return source.split('\n').filter((line) => /^\s*\}\s*,\s*[\d_]+\s*\)\s*;?\s*$/.test(line) || /\btimeout\s*:\s*[1-9][\d_]*/.test(line));
}

describe('no test depends on how loaded the machine is', () => {
  it('finds the patterns it looks for (the check can fail)', () => {
    expect(timeLimitLines("it('x', () => {\n}, 60_000);\nawait page.waitForSelector('a', { timeout: 30_000 });\n{ timeout: 0 }")).toHaveLength(2);
  });

  it('no test file sets a time limit', () => {
    const offenders = files(root).filter((f) => f !== import.meta.filename).flatMap((f) => timeLimitLines(readFileSync(f, 'utf8')).map((l) => `${relative(root, f)}: ${l.trim()}`));
    expect(offenders).toEqual([]);
  });
});
