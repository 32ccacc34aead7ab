/**
 * Issue #16 item 4 and #20: under a Content-Security-Policy without 'unsafe-eval', generated CPU kernels cannot be compiled;
 * without 'wasm-unsafe-eval', the WebAssembly kernels cannot either (backend 'wasm' says so; the automatic choice
 * falls back to the JavaScript, which needs 'unsafe-eval');
 * the call fails with ModprecError CODE_GENERATION_BLOCKED that says why and what to allow. The same page without
 * the policy computes the values (so the failure is the policy's doing). The GPU backend (WebGPU on SwiftShader here)
 * generates WGSL, not JavaScript, and runs under the strict policy too.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { WEBGPU_ARGS, buildBundle, launchChromium, serveStatic } from './browser-harness.js';

let browser: Browser;
let bundle: string;
const pages = join(import.meta.dirname, 'pages');

beforeAll(async () => {
  bundle = await buildBundle();
  browser = await launchChromium(WEBGPU_ARGS);
});
afterAll(async () => {
  await browser?.close();
  if (bundle) rmSync(bundle, { recursive: true, force: true });
});

async function probe(headers: Record<string, string>): Promise<Record<string, { value?: number; error?: Record<string, unknown> }>> {
  const server = await serveStatic({ '/lib/': bundle, '/': pages }, headers);
  const page = await browser.newPage();
  page.setDefaultTimeout(0); // no time limits: a loaded machine must not fail the test
  page.setDefaultNavigationTimeout(0);
  try {
    await page.goto(`${server.url}/csp-probe.html`);
    await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, undefined, { timeout: 0 });
    return await page.evaluate(() => (window as unknown as { __result: never }).__result);
  } finally {
    await page.close();
    await server.close();
  }
}

describe('kernels under a strict Content-Security-Policy (Chromium)', () => {
  it("fail with CODE_GENERATION_BLOCKED naming the policy and 'unsafe-eval'", async () => {
    const r = await probe({ 'content-security-policy': "default-src 'self'; script-src 'self'" });
    for (const k of ['f64', 'pairwiseDd', 'rns']) {
      expect(r[k]!.value, k).toBeUndefined();
      expect(r[k]!.error, k).toMatchObject({ name: 'ModprecError', modprec: true, code: 'CODE_GENERATION_BLOCKED', parameter: 'Content-Security-Policy' });
      expect(r[k]!.error!.message as string).toContain("add 'unsafe-eval' to the script-src directive");
    }
    // WebAssembly needs 'wasm-unsafe-eval': backend 'wasm' says so (the automatic f64 DOT fell back to JavaScript above).
    expect(r.wasm!.error).toMatchObject({ modprec: true, code: 'CODE_GENERATION_BLOCKED', parameter: 'Content-Security-Policy' });
    expect(r.wasm!.error!.message as string).toContain("add 'wasm-unsafe-eval' to the script-src directive");
    // gpu.js translates kernels to WGSL without evaluating JavaScript, so the GPU backend runs under the policy.
    expect(r.gpu).toEqual({ value: 32, backend: 'gpu' });
  });

  it("run the WebAssembly kernels with only 'wasm-unsafe-eval', and refuse the generated JavaScript", async () => {
    const r = await probe({ 'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'" });
    expect(r.f64).toEqual({ value: 32 });
    expect(r.wasm).toEqual({ value: 32 });
    for (const k of ['pairwiseDd', 'rns']) {
      expect(r[k]!.error, k).toMatchObject({ modprec: true, code: 'CODE_GENERATION_BLOCKED', parameter: 'Content-Security-Policy' });
      expect(r[k]!.error!.message as string).toContain("add 'unsafe-eval' to the script-src directive");
    }
  });

  it('compute on the same page when the policy allows it', async () => {
    const r = await probe({ 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-eval'" });
    expect(r.f64).toEqual({ value: 32 });
    expect(r.wasm).toEqual({ value: 32 });
    expect(r.pairwiseDd).toEqual({ value: 32 });
    expect(r.rns).toEqual({ value: 32 });
    expect(r.gpu).toEqual({ value: 32, backend: 'gpu' });
  });
});
