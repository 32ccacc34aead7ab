/**
 * Runs a documentation block in headless Chromium as a page would: the block's own imports ('modprec',
 * 'modprec/gpu', 'modprec/testing') resolve through an import map to the repository's sources, which a small
 * local server transpiles on request (TypeScript's transpileModule; `./x.js` imports find `./x.ts`), and gpu.js
 * resolves to its browser build. WebGPU comes from SwiftShader when the machine has no GPU.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import ts from 'typescript';
import { chromium } from 'playwright-core';
import { PUBLIC_ENTRIES, REPO_ROOT, type CodeBlock } from './code-blocks.js';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run',
  '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader',
];

// gpu.js's browser build is a UMD script that sets globalThis.GPU; this module hands it to `import('gpu.js')`.
const GPUJS_SHIM = `await import('/node_modules/gpu.js/dist/gpu-browser.js'); export default globalThis.GPU;`;

const IMPORT_MAP = JSON.stringify({
  imports: {
    ...Object.fromEntries(Object.entries(PUBLIC_ENTRIES).map(([spec, file]) => [spec, `/${file.replace(/\.ts$/, '.js')}`])),
    'gpu.js': '/__gpujs-shim.mjs',
  },
});

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><script type="importmap">${IMPORT_MAP}</script></head><body>
<script type="module">
import('/__block.js').then(() => { window.__blockDone = 'ok'; }, (e) => { window.__blockDone = String(e && e.stack || e); });
</script></body></html>`;

function transpile(source: string, fileName: string): string {
  return ts.transpileModule(source, {
    fileName,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false },
  }).outputText;
}

function serve(block: CodeBlock): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const send = (type: string, body: string | Buffer) => void res.writeHead(200, { 'content-type': type }).end(body);
    if (path === '/') return send('text/html', PAGE);
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/__block.js') return send('text/javascript', transpile(block.code, 'block.ts'));
    if (path === '/__gpujs-shim.mjs') return send('text/javascript', GPUJS_SHIM);
    const file = normalize(join(REPO_ROOT, path));
    if (!file.startsWith(REPO_ROOT)) return void res.writeHead(403).end();
    const tsFile = file.replace(/\.js$/, '.ts');
    if (extname(file) === '.js' && !existsSync(file) && existsSync(tsFile)) {
      return send('text/javascript', transpile(readFileSync(tsFile, 'utf8'), tsFile));
    }
    if (!existsSync(file)) return void res.writeHead(404).end();
    send(extname(file) === '.js' || extname(file) === '.mjs' ? 'text/javascript' : 'application/octet-stream', readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` });
  }));
}

export interface PageRun {
  /** What the block printed with console.log, in order. */
  logs: string[];
  /** Uncaught errors, failed module loads and console errors. */
  errors: string[];
  /** The page's text once the block finished. */
  bodyText: string;
}

/** Loads the block in a fresh page and waits until its module (top-level awaits included) has finished. */
export async function runInChromium(block: CodeBlock): Promise<PageRun> {
  const { server, url } = await serve(block);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 0 });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(0); // no time limits: a loaded machine must not fail the test
    page.setDefaultNavigationTimeout(0);
    const logs: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'log') logs.push(m.text());
      // Chromium reports a failed load without its address; the response handler below names it.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.waitForFunction('window.__blockDone !== undefined', undefined, { timeout: 0 });
    const done = await page.evaluate('window.__blockDone') as string;
    if (done !== 'ok') errors.push(done);
    return { logs, errors, bodyText: await page.innerText('body') };
  } finally {
    await browser.close();
    server.close();
  }
}
