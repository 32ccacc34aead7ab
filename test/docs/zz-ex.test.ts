import { it, expect } from 'vitest';
import { readFileSync, writeFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { inspect } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const MAIN = '/work/wt/h5-docs/src/index.ts', TESTING = '/work/wt/h5-docs/src/testing/index.ts';
const files = (process.env.EXFILES ?? '').split(',').filter(Boolean);
const examples: { key: string; code: string }[] = [];
for (const f of files) {
  const parts = readFileSync(f, 'utf8').split(/^@@ /m).slice(1);
  for (const p of parts) { const nl = p.indexOf('\n'); examples.push({ key: p.slice(0, nl).trim(), code: p.slice(nl + 1) }); }
}
(globalThis as any).__check = (v: unknown, expected: string, where: string) => {
  const got = typeof v === 'string' ? `'${v}'` : inspect(v, { colors: false, breakLength: Infinity });
  if (got !== expected) (globalThis as any).__mismatch.push(`${where}: got ${got} expected ${expected}`);
};
it.each(examples.map((e) => [e.key, e]))('%s', async (_, ex: any) => {
  const main = Object.keys(await import(MAIN)), testing = Object.keys(await import(TESTING));
  const words = new Set(ex.code.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const fromMain = main.filter((n) => words.has(n));
  const fromTesting = testing.filter((n) => words.has(n) && !fromMain.includes(n));
  const lines = ex.code.split('\n').map((l: string, k: number) => {
    const m = /^(.*?);?\s*\/\/ → (.+)$/.exec(l);
    if (!m || /^\s*(const|let|var|for|if)\b/.test(m[1]!)) return l;
    return `__check((${m[1]}), ${JSON.stringify(m[2]!.trim())}, ${JSON.stringify(ex.key + ':' + (k + 1))});`;
  });
  const head = [
    fromMain.length ? `import { ${fromMain.join(', ')} } from '${MAIN}';` : '',
    fromTesting.length ? `import { ${fromTesting.join(', ')} } from '${TESTING}';` : '',
    words.has('fc') ? `import fc from 'fast-check';` : '',
  ].join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'ex-')), 'ex.ts');
  writeFileSync(file, `${head}\n${lines.join('\n')}\nexport {};\n`);
  (globalThis as any).__mismatch = [];
  await import(file);
  expect((globalThis as any).__mismatch).toEqual([]);
});
