/**
 * The ```ts code blocks of the user documentation, as runnable modules: each block is a self-contained
 * program that imports from 'modprec' (and 'modprec/testing', 'modprec/gpu') as a user would; here those
 * specifiers are mapped to the repository's sources. Info-string flags after `ts`:
 *   - `fragment`: deliberately incomplete (kept few; the test counts them), not run;
 *   - `browser`: meant for a page (it may use `document`); run in headless Chromium instead of Node.
 * A `console.log(…)` line ending in `// → text` documents what it prints: the runner checks it.
 * In the API reference's `@example` blocks, which read as a REPL session, a line `expression; // → text`
 * documents the expression's value, as `util.inspect` (the console) shows it: {@link withValueChecks}.
 */
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const REPO_ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** The package's public specifiers and the sources that implement them. */
export const PUBLIC_ENTRIES: Readonly<Record<string, string>> = {
  'modprec': 'src/index.ts',
  'modprec/testing': 'src/testing/index.ts',
  'modprec/gpu': 'src/backends/webgpu/index.ts',
  // The same exports as src/threads/index.ts, with workers that run the sources (see the file).
  'modprec/threads': 'test/docs/threads-from-sources.ts',
};

export interface CodeBlock {
  /** Document path relative to the repository root. */
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  flags: ReadonlySet<string>;
  code: string;
  /** What the block's annotated `console.log` lines print, in order. */
  expectedOutput: string[];
}

const FENCE = /^```(\S*)(.*)$/;
const ANNOTATED_LOG = /console\.log\(.*\/\/ → (.*)$/;

/** Every ```ts block of a Markdown document (other languages and untagged blocks are prose). */
export function codeBlocksOf(doc: string): CodeBlock[] {
  const lines = readFileSync(join(REPO_ROOT, doc), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, k) => k > i && l.startsWith('```'));
    if (end < 0) throw new Error(`${doc}:${i + 1}: unclosed code fence`);
    if (open[1] === 'ts' || open[1] === 'typescript') {
      const body = lines.slice(i + 1, end);
      blocks.push({
        doc, line: i + 1,
        flags: new Set(open[2]!.trim().split(/\s+/).filter(Boolean)),
        code: body.join('\n'),
        expectedOutput: body.flatMap((l) => ANNOTATED_LOG.exec(l)?.[1]?.trim() ?? []),
      });
    }
    i = end;
  }
  return blocks;
}

/** The block's source with the public specifiers pointing at the repository's sources. */
export function withSourceImports(code: string): string {
  return code.replace(/(from\s+|import\s*\(\s*|import\s+)(['"])(modprec(?:\/[a-z]+)?)\2/g, (all, lead: string, quote: string, spec: string) => {
    const target = PUBLIC_ENTRIES[spec];
    if (!target) throw new Error(`unknown public specifier ${spec}`);
    return `${lead}${quote}${join(REPO_ROOT, target)}${quote}`;
  });
}

/** Writes the block (or its code transformed) as a module in a fresh temporary folder; returns its path. */
export function writeBlockModule(block: Pick<CodeBlock, 'doc' | 'line' | 'code'>, transform: (code: string) => string = (c) => c): string {
  const dir = mkdtempSync(join(tmpdir(), 'modprec-doc-'));
  const file = join(dir, `${block.doc.replace(/[^a-z0-9]+/gi, '-')}-${block.line}.ts`);
  writeFileSync(file, `${withSourceImports(transform(block.code))}\nexport {};\n`);
  return file;
}

const VALUE_LINE = /^(\s*)(.*?);?\s*\/\/ → (.+)$/;
const STATEMENT_START = /^(const|let|var|for|if|while|return|import|export|function|class)\b/;

/**
 * Turns every `expression; // → text` line into a call of `globalThis.__docCheck(value, text, line)`, so the
 * example checks the values it documents (declarations and other statements are left alone).
 */
export function withValueChecks(code: string): string {
  return code.split('\n').map((line, k) => {
    const m = VALUE_LINE.exec(line);
    if (!m || STATEMENT_START.test(m[2]!) || m[2]!.includes(' // ')) return line;
    return `${m[1]}globalThis.__docCheck((${m[2]}), ${JSON.stringify(m[3]!.trim())}, ${k + 1});`;
  }).join('\n');
}
