/**
 * Type-checks documentation blocks as a user's TypeScript project would see them: each block is a module
 * (`.mts`, so top-level await is allowed) importing 'modprec', 'modprec/testing' and 'modprec/gpu', which
 * `paths` maps to the sources; compiler options are the repository's tsconfig.json.
 */
import ts from 'typescript';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUBLIC_ENTRIES, REPO_ROOT, type CodeBlock } from './code-blocks.js';

/** The type errors of each block, as `doc:line: message` (block lines counted from the fence). */
export function typeErrorsOf(blocks: readonly CodeBlock[]): string[] {
  const config = ts.readConfigFile(join(REPO_ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'modprec-doc-types-'));
  const files = new Map<string, CodeBlock>();
  blocks.forEach((b, k) => {
    const file = join(dir, `block-${k}.mts`);
    writeFileSync(file, `${b.code}\nexport {};\n`);
    files.set(file, b);
  });
  // The blocks sit in a temporary folder: the package's own names map to the sources, fast-check (the
  // testing kit's peer dependency, which examples import) to the repository's copy.
  const paths = {
    ...Object.fromEntries(Object.entries(PUBLIC_ENTRIES).map(([spec, file]) => [spec, [join(REPO_ROOT, file)]])),
    'fast-check': [join(REPO_ROOT, 'node_modules/fast-check/lib/fast-check.d.ts')],
  };
  const program = ts.createProgram({
    rootNames: [...files.keys()],
    options: { ...parsed.options, noEmit: true, paths, allowImportingTsExtensions: true, rootDir: undefined },
  });
  const errors: string[] = [];
  for (const [file, block] of files) {
    const source = program.getSourceFile(file)!;
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1;
      errors.push(`${block.doc}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    }
  }
  return errors;
}
