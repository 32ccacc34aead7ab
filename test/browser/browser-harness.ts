/**
 * What the browser tests share: the library's browser bundle built into a temporary folder (scripts/build-browser.mjs),
 * a static file server for it and the pages under test (with extra response headers, e.g. a Content-Security-Policy),
 * and headless Chromium (the Debian package, driven by playwright-core).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
// @ts-expect-error a plain ES module script without declarations
import { buildBrowserBundle } from '../../scripts/build-browser.mjs';

export const CHROMIUM = '/usr/bin/chromium';
const BASE_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/** WebGPU on SwiftShader (Chromium's CPU Vulkan), for machines without a GPU. */
export const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-features=Vulkan'];

/** Builds the browser bundle into a new temporary folder and returns it. */
export async function buildBundle(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'modprec-browser-'));
  await buildBrowserBundle(dir);
  return dir;
}

/** Launches headless Chromium with `extraArgs`. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (scripts/setup.sh)`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...BASE_ARGS, ...extraArgs], timeout: 0 });
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html; charset=utf-8', '.css': 'text/css' };

/** A static server on 127.0.0.1 (a secure context, as WebGPU needs). */
export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves each URL prefix from its folder (longest prefix first), with `headers` on every response.
 * @param routes - URL prefix (ending in '/') → folder
 * @param headers - extra response headers
 */
export async function serveStatic(routes: Readonly<Record<string, string>>, headers: Readonly<Record<string, string>> = {}): Promise<StaticServer> {
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length);
  const server: Server = createServer(async (req, res) => {
    let path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    if (path.endsWith('/')) path += 'index.html';
    const prefix = prefixes.find((p) => path.startsWith(p));
    if (!prefix) return void res.writeHead(404).end();
    const root = routes[prefix]!;
    const file = normalize(join(root, path.slice(prefix.length)));
    if (!file.startsWith(normalize(root))) return void res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...headers }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
