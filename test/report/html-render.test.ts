/**
 * The HTML report renders in a real browser (headless Chromium, the Debian package `chromium`): no
 * console errors, every plot of the page drawn with values, every canvas non-blank. A full-page
 * screenshot is kept in test-artifacts/ for a human look.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { writeReport } from '../../src/report/write-report.js';
import { plotSpecs } from '../../src/report/plot-specs.js';
import { tinyStudy } from '../study/study-fixture.js';
import type { StudyResult } from '../../src/study/types.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let browser: Browser;
let result: StudyResult;
let html: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`);
  result = await tinyStudy();
  html = writeReport(mkdtempSync(join(tmpdir(), 'modprec-html-')), result).html;
  // timeout 0: no time limits anywhere in this test (launch, navigation, waits), so a loaded machine cannot fail it.
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 0 });
});
afterAll(async () => { await browser?.close(); });

describe('HTML report in headless Chromium', () => {
  it('renders every plot with values, no console errors, no network requests; keeps a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(0);
    page.setDefaultNavigationTimeout(0);
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
    await page.goto(`file://${html}`);
    await page.waitForSelector('body[data-rendered]', { timeout: 0 });

    const specs = plotSpecs(result.measurements);
    const sections = new Set(specs.map((s) => s.section));
    for (const s of ['accuracy', 'speed', 'speedup', 'roofline', 'precision'] as const) expect(sections, s).toContain(s);
    expect(await page.getAttribute('body', 'data-rendered')).toBe(String(specs.length));

    const charts = await page.$$eval('.chart', (els) => els.map((e) => ({
      id: e.id,
      points: Number(e.getAttribute('data-points')),
      canvas: (() => {
        const c = e.querySelector('canvas');
        if (!c) return { width: 0, height: 0, inked: 0 };
        const ctx = c.getContext('2d')!;
        const data = ctx.getImageData(0, 0, c.width, c.height).data;
        let inked = 0; // pixels neither transparent nor white: axes, grid, lines
        for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && (data[i]! < 250 || data[i + 1]! < 250 || data[i + 2]! < 250)) inked++;
        return { width: c.width, height: c.height, inked };
      })(),
    })));
    expect(charts.map((c) => c.id).sort()).toEqual(specs.map((s) => s.id).sort());
    for (const c of charts) {
      expect(c.points, c.id).toBeGreaterThan(0);
      expect(c.canvas.width * c.canvas.height, c.id).toBeGreaterThan(100 * 100);
      expect(c.canvas.inked, c.id).toBeGreaterThan(500);
    }
    // The summary table lists every kernel that was measured.
    const kernels = await page.$$eval('table.summary tbody tr td:first-child', (tds) => [...new Set(tds.map((t) => t.textContent))]);
    expect(kernels.sort()).toEqual(['dot', 'ell-spmv', 'gemv', 'trsv', 'waxpby']);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);

    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: join('test-artifacts', 'study-report.png'), fullPage: true });
    await page.close();
  });
});
