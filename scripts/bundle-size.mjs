/**
 * The CPU-only browser bundle of issue 14 (`dot, gemv, formats, range` from the main entry; esbuild: bundle, minify,
 * splitting, esm, browser), measured from dist/ without packing: the KB that load with the page (the entry chunk and
 * the chunks it imports statically) and what each module puts there, largest first. Run `npx tsc -p tsconfig.json`
 * first. test/package/installed-package.test.ts checks the same bundle (≤ 160 KB) on the packed, installed package.
 *
 * Why a module is there: esbuild puts a module in a chunk the page loads when the entry reaches it through static
 * imports (re-exports of src/index.ts included) and any code anywhere uses it — a lazily loaded GPU module that
 * imports a CPU kernel makes that kernel load with the page too.
 *
 * Usage: node scripts/bundle-size.mjs [top modules to list, default 40]
 */
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const top = Number(process.argv[2] ?? 40);
const outdir = mkdtempSync(join(tmpdir(), 'modprec-bundle-'));
const contents = `import { dot, gemv, formats, range, vector } from './dist/src/index.js'; console.log(dot, gemv, formats, range, vector);`;
try {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'entry.js' }, absWorkingDir: root,
    bundle: true, minify: true, splitting: true, format: 'esm', platform: 'browser', outdir, metafile: true, write: false, logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((k) => outputs[k].entryPoint === 'entry.js');
  const eager = new Set();
  const visit = (k) => {
    if (eager.has(k)) return;
    eager.add(k);
    for (const i of outputs[k].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(entry);
  const bytes = [...eager].reduce((s, k) => s + outputs[k].bytes, 0);
  const modules = {};
  for (const k of eager) for (const [p, v] of Object.entries(outputs[k].inputs)) modules[p] = (modules[p] ?? 0) + v.bytesInOutput;
  console.log(`CPU-only browser bundle: ${(bytes / 1024).toFixed(1)} KB minified (${eager.size} eager chunks; limit 160 KB)`);
  for (const [p, b] of Object.entries(modules).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(b / 1024).toFixed(1).padStart(6)} ${p}`);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
