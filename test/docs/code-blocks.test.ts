/**
 * The README's and the guide's examples run as written: every ```ts block is imported as a module (with
 * 'modprec' mapped to the sources) and what its `// → ` comments say it prints is what it prints.
 */
import { describe, it, expect } from 'vitest';
import { format } from 'node:util';
import { codeBlocksOf, writeBlockModule, type CodeBlock } from './code-blocks.js';

const DOCS = ['README.md', 'docs/guide.md'];
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
