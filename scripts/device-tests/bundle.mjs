#!/usr/bin/env node
/**
 * Bundles test files into one Node program that runs them without vitest, for the lent GPU machine (it gets Node and
 * the production dependencies only: ../shared/tools/device-pack.sh). vitest's API comes from vitest-shim.ts
 * (vitest's own `expect`, a small sequential runner); gpu.js and webgpu stay external (installed there; fast-check, a peer dependency, is bundled).
 *
 *   node scripts/device-tests/bundle.mjs 'test/gpu/public-*.test.ts' …   → .carry-run/device-tests/run.mjs
 *   (there) bash .device/run.sh node .carry-run/device-tests/run.mjs [substring …] [!substring …]
 *   (files whose path contains one of the substrings and none of the !substrings; all without substrings; LIST=1
 *   prints their names instead: the files share their modules in one process, so a file that changes module state —
 *   an adapter taken away, switches flipped — needs a process of its own, as vitest gives each file)
 *
 * The program prints one line a test and writes $OUT/device-tests.json (every outcome) when OUT is set; its exit
 * status is 1 when a test failed. Tests that read files next to them through import.meta.url do not run bundled.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, basename, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const patterns = process.argv.slice(2);
if (patterns.length === 0) { console.error('usage: bundle.mjs <test glob> …'); process.exit(2); }
/** Files matching a pattern whose `*` wildcards are in its last part (Node 20 has no fs.globSync). */
const matches = (p) => {
  const re = new RegExp(`^${basename(p).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return readdirSync(resolve(root, dirname(p))).filter((f) => re.test(f)).map((f) => `${dirname(p)}/${f}`);
};
const files = [...new Set(patterns.flatMap(matches))].sort();
if (files.length === 0) { console.error('bundle.mjs: no test file matches'); process.exit(2); }

const entry = `
import { writeFileSync } from 'node:fs';
import { beginFile, runAll } from './scripts/device-tests/vitest-shim.ts';
const loaders = {
${files.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(`./${f}`)}),`).join('\n')}
};
const only = process.argv.slice(2).filter((s) => !s.startsWith('!'));
const not = process.argv.slice(2).filter((s) => s.startsWith('!')).map((s) => s.slice(1));
if (process.env.LIST === '1') {
  for (const file of Object.keys(loaders)) if (!((only.length > 0 && !only.some((s) => file.includes(s))) || not.some((s) => file.includes(s)))) console.log(file);
  process.exit(0);
}
const outcomes = [];
const started = performance.now();
for (const [file, load] of Object.entries(loaders)) {
  if ((only.length > 0 && !only.some((s) => file.includes(s))) || not.some((s) => file.includes(s))) continue;
  beginFile();
  const t = performance.now();
  try { await load(); } catch (e) { outcomes.push({ file, name: '(import)', status: 'failed', ms: 0, error: String(e?.stack ?? e) }); console.log('FAIL', file, '(import)', e); continue; }
  const got = await runAll(file, (o) => console.log(o.status === 'passed' ? 'ok  ' : o.status === 'skipped' ? 'skip' : 'FAIL', file, '>', o.name, o.ms.toFixed(0) + ' ms', o.error ? '\\n' + o.error : ''));
  outcomes.push(...got);
  console.log('file', file, ((performance.now() - t) / 1000).toFixed(1) + ' s');
}
const count = (s) => outcomes.filter((o) => o.status === s).length;
console.log(\`\${count('passed')} passed, \${count('failed')} failed, \${count('skipped')} skipped in \${((performance.now() - started) / 1000).toFixed(0)} s\`);
if (process.env.OUT) writeFileSync(process.env.OUT + '/device-tests.json', JSON.stringify(outcomes, null, 1));
process.exit(count('failed') > 0 ? 1 : 0);
`;

const outdir = resolve(root, '.carry-run/device-tests');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'device-tests-entry.ts' },
  bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', outdir, entryNames: 'run',
  outExtension: { '.js': '.mjs' }, logLevel: 'warning',
  alias: { vitest: './scripts/device-tests/vitest-shim.ts' },
  external: ['gpu.js', 'webgpu', 'uplot'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
// The loop that runs each file in a process of its own, carried with the bundle.
copyFileSync(resolve(root, 'scripts/device-tests/per-file.sh'), resolve(root, '.carry-run/per-file.sh'));
console.log(`bundle.mjs: ${files.length} test files → ${outdir}/run.mjs`);
