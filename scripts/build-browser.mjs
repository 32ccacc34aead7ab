#!/usr/bin/env node
// Builds modprec's browser bundle with esbuild: `modprec.js` (the main entry) and `modprec-gpu.js` (modprec/gpu) as
// ES modules with shared chunks, so a page that never asks for the GPU never downloads gpu.js (its chunk loads on
// the first `backend: 'gpu'` call or import of modprec-gpu.js).
// Usage: node scripts/build-browser.mjs [outdir]   (default: playground/lib)
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = resolve(process.argv[2] ?? resolve(root, 'playground/lib'));

/**
 * Builds the bundle into `outdir` and returns esbuild's metafile.
 * @param {string} outdir
 */
export async function buildBrowserBundle(outdir) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { modprec: 'src/index.ts', 'modprec-gpu': 'src/backends/webgpu/index.ts' },
    bundle: true, splitting: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true,
    outdir, metafile: true, legalComments: 'none',
    // src/backends/webgpu/backend.ts imports Dawn's `webgpu` package by a variable specifier, on Node only.
    logOverride: { 'unsupported-dynamic-import': 'silent' }, logLevel: 'warning',
  });
  return result.metafile;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const meta = await buildBrowserBundle(outdir);
  for (const [file, out] of Object.entries(meta.outputs)) console.log(`${(out.bytes / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
