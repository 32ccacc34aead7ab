/**
 * Issue #16 item 7: the playground page (playground/, over the library's browser bundle) driven in Chromium as a user
 * would: choose kernel, size, storage, arithmetic and backend, press Run, read the result, the measured error against
 * the exact value, the bound and the time. On the CPU and on WebGPU through SwiftShader.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildBundle, launchChromium, serveStatic, WEBGPU_ARGS, type StaticServer } from './browser-harness.js';

let browser: Browser;
let server: StaticServer;
let bundle: string;
const playground = join(import.meta.dirname, '../../playground');

beforeAll(async () => {
  bundle = await buildBundle();
  server = await serveStatic({ '/lib/': bundle, '/': playground });
  browser = await launchChromium(WEBGPU_ARGS);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (bundle) rmSync(bundle, { recursive: true, force: true });
});

interface Choice { kernel: 'dot' | 'gemv'; size: number; storage: string; arithmetic: string; backend: 'cpu' | 'gpu' }
interface Shown { state: string; errorCode?: string; status: string; error: number; bound: number | undefined; within: string; time: string; ran: string; result: string; exact: string }

async function runIn(page: Page, c: Choice): Promise<Shown> {
  await page.selectOption('#kernel', c.kernel);
  await page.fill('#size', String(c.size));
  await page.selectOption('#storage', c.storage);
  await page.selectOption('#arithmetic', c.arithmetic);
  await page.selectOption('#backend', c.backend);
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error', undefined, { timeout: 0 });
  return page.evaluate(() => {
    const text = (id: string) => document.getElementById(id)!.textContent ?? '';
    const data = (id: string) => document.getElementById(id)!.dataset.value ?? '';
    return {
      state: document.body.dataset.state!, errorCode: document.body.dataset.errorCode, status: text('status'),
      error: Number(data('out-error')), bound: data('out-bound') === '' ? undefined : Number(data('out-bound')),
      within: data('out-within'), time: text('out-time'), ran: data('out-ran'), result: text('out-result'), exact: text('out-exact'),
    };
  });
}

async function openPlayground(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  page.setDefaultTimeout(0); // no time limits: a loaded machine must not fail the test
  page.setDefaultNavigationTimeout(0);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/index.html`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', undefined, { timeout: 0 });
  return { page, errors };
}

describe('playground in Chromium', () => {
  it('runs DOT and GEMV on the CPU: error within the bound, exact result for exact arithmetic', async () => {
    const { page, errors } = await openPlayground();
    const f32 = await runIn(page, { kernel: 'dot', size: 5000, storage: 'f16', arithmetic: 'f32', backend: 'cpu' });
    expect(f32.state, f32.status).toBe('done');
    expect(f32.ran).toBe('cpu');
    expect(f32.error).toBeGreaterThan(0); // f32 arithmetic on 5000 terms rounds
    expect(f32.error).toBeLessThanOrEqual(f32.bound!);
    expect(f32.within).toBe('true');
    expect(f32.time).toMatch(/^\d+\.\d{3} ms$/);
    // 424-bit RNS holds every product and partial sum of f16 data exactly: only the final rounding to a double is left.
    const rns = await runIn(page, { kernel: 'dot', size: 5000, storage: 'f16', arithmetic: 'rns424', backend: 'cpu' });
    expect(rns.state, rns.status).toBe('done');
    expect(rns.error).toBeLessThanOrEqual(Math.abs(Number(rns.exact)) * 2 ** -53);
    expect(rns.error).toBeLessThanOrEqual(rns.bound!);
    const gemv = await runIn(page, { kernel: 'gemv', size: 200, storage: 'bf16', arithmetic: 'f32', backend: 'cpu' });
    expect(gemv.state, gemv.status).toBe('done');
    expect(gemv.within).toBe('true');
    expect(gemv.error).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a typed error for a bad size instead of running', async () => {
    const { page } = await openPlayground();
    const r = await runIn(page, { kernel: 'gemv', size: 100000, storage: 'f32', arithmetic: 'auto', backend: 'cpu' });
    expect(r.state).toBe('error');
    expect(r.status).toContain('size must be an integer from 1 to 4096');
    await page.close();
  });

  it('runs DOT and GEMV on WebGPU (SwiftShader) within the bound', async () => {
    const { page, errors } = await openPlayground();
    const d = await runIn(page, { kernel: 'dot', size: 4096, storage: 'f32', arithmetic: 'f32', backend: 'gpu' });
    expect(d.state, d.status).toBe('done');
    expect(d.ran).toBe('gpu');
    expect(d.error).toBeLessThanOrEqual(d.bound!);
    const g = await runIn(page, { kernel: 'gemv', size: 128, storage: 'f32', arithmetic: 'f32', backend: 'gpu' });
    expect(g.state, g.status).toBe('done');
    expect(g.ran).toBe('gpu');
    expect(g.within).toBe('true');
    expect(errors).toEqual([]);
    // For a human look (test-artifacts/ is not committed).
    const artifacts = join(import.meta.dirname, '../../test-artifacts');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'playground-webgpu.png'), fullPage: true });
    console.log(`playground WebGPU GEMV: ${g.ran}, error ${g.error}, bound ${g.bound}, ${g.time}; DOT: error ${d.error}, bound ${d.bound}, ${d.time}`);
    await page.close();
  });
});
