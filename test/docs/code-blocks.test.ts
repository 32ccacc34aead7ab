/**
 * The README's, the guide's and the solvers page's examples run as written: every ```ts block is imported as a module (with
 * 'modprec' mapped to the sources) and what its `// → ` comments say it prints is what it prints.
 */
import { describe, it, expect } from 'vitest';
import { format } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, codeBlocksOf, writeBlockModule, type CodeBlock } from './code-blocks.js';
import { CHROMIUM, runInChromium } from './browser-page.js';
import { typeErrorsOf } from './typecheck-blocks.js';

const DOCS = ['README.md', 'docs/guide.md', 'docs/solvers.md'];
const blocks = DOCS.flatMap(codeBlocksOf);
const nodeBlocks = blocks.filter((b) => !b.flags.has('fragment') && !b.flags.has('browser'));

async function runCapturingLogs(block: CodeBlock): Promise<string[]> {
  const file = writeBlockModule(block);
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => { printed.push(format(...args)); };
  try {
    await import(file);
  } finally {
    console.log = log;
  }
  return printed;
}

describe('README', () => {
  it('gives the contributor set-up commands after the user sections, and they name real scripts', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('bash scripts/setup.sh && npm start');
    const test = readme.indexOf('bash scripts/setup.sh && npm test');
    expect(start).toBeGreaterThan(readme.indexOf('npm install modprec'));
    expect(test).toBeGreaterThan(readme.indexOf('## Example (browser)'));
    const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['start', 'test']));
    expect(existsSync(join(REPO_ROOT, 'scripts/setup.sh'))).toBe(true);
  });
});

describe('documentation code blocks', () => {
  it('each document has examples, and fragments (blocks not run) stay few', () => {
    for (const doc of DOCS) expect(blocks.filter((b) => b.doc === doc).length, doc).toBeGreaterThan(0);
    expect(blocks.filter((b) => b.flags.has('fragment')).length).toBeLessThanOrEqual(3);
  });

  it.each(nodeBlocks.map((b) => [`${b.doc}:${b.line}`, b] as const))('%s runs and prints what it says', async (_, block) => {
    const printed = await runCapturingLogs(block);
    expect(printed.length, 'every console.log of an example is annotated with // → what it prints').toBe(block.expectedOutput.length);
    expect(printed).toEqual(block.expectedOutput);
  });
});

describe('documentation code blocks for a browser page', () => {
  const browserBlocks = blocks.filter((b) => b.flags.has('browser') && !b.flags.has('fragment'));

  it('the README has one', () => {
    expect(browserBlocks.some((b) => b.doc === 'README.md')).toBe(true);
  });

  it.each(browserBlocks.map((b) => [`${b.doc}:${b.line}`, b] as const))('%s runs in Chromium and prints what it says', async (_, block) => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: bash scripts/setup.sh installs it`);
    const run = await runInChromium(block);
    expect(run.errors).toEqual([]);
    expect(run.logs).toEqual(block.expectedOutput);
    expect(run.bodyText.length).toBeGreaterThan(0);
  });
});

describe('documentation code blocks as TypeScript', () => {
  it('every block that is not a fragment type-checks against the public entry points', () => {
    expect(typeErrorsOf(blocks.filter((b) => !b.flags.has('fragment')))).toEqual([]);
  });
});
