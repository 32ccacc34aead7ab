/**
 * Browser smoke run: serves the built project, opens it in headless Chromium (WebGPU through SwiftShader
 * where there is no GPU) and runs DOT, GEMV and ELL SpMV through `navigator.gpu` — the same modules as in
 * Node, with gpu.js's browser build. Prints the adapter and the errors against a CPU reference.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/browser-smoke.js [path-to-chromium]
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { projectRoot } from '../report.js';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };

// gpu.js's browser build is a UMD script that sets globalThis.GPU; this module hands it to `import('gpu.js')`.
const SHIM = `await import('/node_modules/gpu.js/dist/gpu-browser.js'); export default globalThis.GPU;`;

const PAGE = `<!doctype html><html><head><script type="importmap">{ "imports": { "gpu.js": "/__gpujs-shim.mjs" } }</script></head><body><script type="module">
import { gpuDevice, gpuUnavailableReason, toDevice, gpuDot, gpuGemv, deviceMatrix, gpuEllSpmv, toDeviceEll } from '/dist/src/backends/webgpu/index.js';
const out = {};
try {
  const ctx = await gpuDevice();
  out.adapter = ctx ? ctx.adapter.name + ' (' + ctx.adapter.backend + ', ' + ctx.adapter.featureLevel + ')' : 'none: ' + gpuUnavailableReason();
  const n = 1000;
  const xs = Float32Array.from({ length: n }, (_, k) => Math.sin(k));
  const ys = Float32Array.from({ length: n }, (_, k) => Math.cos(3 * k));
  let ref = 0; for (let k = 0; k < n; k++) ref += xs[k] * ys[k];
  const d = await gpuDot(await toDevice(xs), await toDevice(ys), { arithmetic: 'ff' });
  out.dot = { backend: d.backend, relErr: Math.abs(d.value - ref) / Math.abs(ref) };
  const m = 64;
  const a = Float32Array.from({ length: m * m }, (_, k) => Math.sin(k * 0.37));
  const x = await toDevice(xs.subarray(0, m));
  const y = await toDevice(new Float64Array(m), { format: 'ff' });
  const g = await gpuGemv({ A: deviceMatrix(await toDevice(a, { format: 'bf16' }), m, m), x, y }, { arithmetic: 'ff' });
  const ab = await (await toDevice(a, { format: 'bf16' })).toHost();
  const yh = await y.toHost();
  let e = 0; for (let i = 0; i < m; i++) { let s = 0; for (let j = 0; j < m; j++) s += ab[i + j * m] * xs[j]; e = Math.max(e, Math.abs(yh[i] - s)); }
  out.gemv = { backend: g.backend, maxAbsErr: e };
  const E = await toDeviceEll({ rows: 3, cols: 3, width: 2, stride: 3, colIndex: Int32Array.from([0, 1, 2, 1, -1, 0]), values: [1, 2, 3, 4, 0, 5] });
  const ye = await toDevice([0, 0, 0]);
  await gpuEllSpmv({ A: E, x: await toDevice([1, 10, 100]), y: ye });
  out.ell = [...(await ye.toHost())];
} catch (err) { out.error = String(err && err.stack || err); }
window.__result = out;
</script></body></html>`;

async function main(): Promise<void> {
  const server = createServer(async (req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (url === '/__gpujs-shim.mjs') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(SHIM);
    const file = normalize(join(projectRoot, url));
    if (!file.startsWith(projectRoot)) return void res.writeHead(403).end();
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const specifier = 'playwright-core';
  const { chromium } = (await import(specifier)) as { chromium: { launch(o: object): Promise<{ newPage(): Promise<{ goto(u: string): Promise<unknown>; waitForFunction(f: string, a?: unknown, o?: object): Promise<unknown>; evaluate(f: string): Promise<unknown> }>; close(): Promise<void> }> } };
  const browser = await chromium.launch({
    executablePath: process.argv[2] ?? '/usr/bin/chromium',
    args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox'],
  });
  const page = await browser.newPage();
  await page.goto(`http://localhost:${port}/`);
  await page.waitForFunction('window.__result !== undefined', undefined, { timeout: 60_000 });
  console.log(JSON.stringify(await page.evaluate('window.__result'), null, 2));
  await browser.close();
  server.close();
}

void main();
