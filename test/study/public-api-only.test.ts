/**
 * The study application (app/) is a user of the library: it reaches the library only through
 * app/modprec.ts and app/modprec-gpu.ts, which re-export exactly the public entries `modprec` and
 * `modprec/gpu`. Any other import leaving app/ (a deep import into src/, accessors/ or kernels/) fails.
 */
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const app = join(root, 'app');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = [...code.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
  return [...new Set(found)];
}

const FACADES: Readonly<Record<string, string>> = { 'app/modprec.ts': 'src/index.js', 'app/modprec-gpu.ts': 'src/backends/webgpu/index.js' };

describe('app/ uses only the public API', () => {
  it('the facades re-export exactly the public entries and nothing else', () => {
    for (const [file, entry] of Object.entries(FACADES)) {
      const targets = specifiers(readFileSync(join(root, file), 'utf8')).map((s) => relative(root, resolve(dirname(join(root, file)), s)));
      expect(targets, file).toEqual([entry]);
    }
  });

  it('every other file imports node built-ins, packages, app/ files or a facade — never src/, accessors/ or kernels/', () => {
    const offenders: string[] = [];
    const files = sources(app).filter((f) => !(relative(root, f) in FACADES));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(root, resolve(dirname(file), spec));
        if (!target.startsWith(`app${'/'}`)) offenders.push(`${relative(root, file)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
