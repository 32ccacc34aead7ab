/**
 * The HTML report renders in a real browser (headless Chromium, the Debian package `chromium`): no
 * console errors, every chart of the page drawn with values, every canvas non-blank; at most eight series
 * per chart, each with its own colour and dash pattern, shown in the legend; an error-against-speed chart
 * per kernel with its Pareto front; facets picked from a list; the summary table after the last figure.
 * A full-page screenshot is kept in test-artifacts/ for a human look.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { writeReport } from '../../app/report/write-report.js';
import { chartsOf, figureSpecs, MAX_SERIES } from '../../app/report/plot-specs.js';
import { renderReport } from '../../app/report/html.js';
import { loadChartAssets } from '../../app/report/uplot-assets.js';
import { tinyStudy } from '../study/study-fixture.js';
import type { StudyResult } from '../../app/study/types.js';

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

    const figures = figureSpecs(result.measurements);
    const specs = chartsOf(figures);
    const sections = new Set(figures.map((f) => f.section));
    for (const s of ['dot', 'gemv', 'trsv', 'ell-spmv', 'waxpby', 'roofline', 'precision']) expect(sections, s).toContain(s);
    for (const k of ['dot', 'gemv', 'trsv', 'ell-spmv', 'waxpby']) {
      const pareto = figures.find((f) => f.id === `${k}-pareto`);
      expect(pareto, k).toBeDefined();
      expect(pareto!.charts[0]!.labels!.some((l) => l.emphasis), `${k}: a configuration on the front`).toBe(true);
    }
    for (const k of ['dot', 'gemv', 'ell-spmv', 'waxpby']) {
      // Product-sum kernels draw the a-priori bound beside the measured error.
      expect(figures.find((f) => f.id === `${k}-bound`)!.charts[0]!.series.map((x) => x.label).join('|'), k).toMatch(/bound/);
    }
    expect(await page.getAttribute('body', 'data-rendered')).toBe(String(specs.length));

    const charts = await page.$$eval('.chart', (els) => els.map((e) => ({
      id: e.id,
      points: Number(e.getAttribute('data-points')),
      legend: [...(e.parentElement!.querySelectorAll('ul.legend li') as NodeListOf<HTMLElement>)].map((li) => ({
        color: li.getAttribute('data-color'), dash: li.getAttribute('data-dash'),
        svgStroke: li.querySelector('line')?.getAttribute('stroke'), svgDash: li.querySelector('line')?.getAttribute('stroke-dasharray') ?? '',
      })),
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
      const spec = specs.find((s) => s.id === c.id)!;
      expect(c.points, c.id).toBeGreaterThan(0);
      expect(c.canvas.width * c.canvas.height, c.id).toBeGreaterThan(100 * 100);
      expect(c.canvas.inked, c.id).toBeGreaterThan(500);
      // At most eight series; no two share a colour or a dash pattern; the legend shows each with both.
      expect(spec.series.length, c.id).toBeLessThanOrEqual(MAX_SERIES);
      expect(new Set(spec.series.map((x) => x.color)).size, c.id).toBe(spec.series.length);
      expect(new Set(spec.series.map((x) => x.dash.join(' '))).size, c.id).toBe(spec.series.length);
      expect(c.legend, c.id).toEqual(spec.series.map((x) => ({ color: x.color, dash: x.dash.join(' '), svgStroke: x.color, svgDash: x.dash.join(' ') })));
    }
    // Facets: one chart of a figure shows at a time; the list switches to another.
    const multi = figures.find((f) => f.charts.length > 1)!;
    expect(multi).toBeDefined();
    const visible = () => page.$$eval(`#figure-${multi.id} .facet`, (els) => els.filter((e) => !(e as HTMLElement).hidden).map((e) => e.getAttribute('data-chart')));
    expect(await visible()).toEqual([multi.charts[0]!.id]);
    await page.selectOption(`#figure-${multi.id} select.facets`, multi.charts[1]!.id);
    expect(await visible()).toEqual([multi.charts[1]!.id]);
    await page.selectOption(`#figure-${multi.id} select.facets`, multi.charts[0]!.id);
    // Plain-language captions (no citations in place of a description); the summary table after the last figure.
    const captions = await page.$$eval('figcaption', (els) => els.map((e) => e.textContent ?? ''));
    for (const text of captions) expect(text).not.toMatch(/seed \d{3}/);
    expect(await page.evaluate(() => {
      const figs = document.querySelectorAll('figure');
      return (figs[figs.length - 1]!.compareDocumentPosition(document.querySelector('table.summary')!) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    })).toBe(true);
    expect(await page.$$eval('table.summary th', (ths) => ths.map((t) => t.textContent))).toEqual(expect.arrayContaining(['bytes per element', 'memory saved vs fp64', 'a-priori bound', 'Pareto front']));
    // The summary table lists every kernel that was measured.
    const kernels = await page.$$eval('table.summary tbody tr td:first-child', (tds) => [...new Set(tds.map((t) => t.textContent))]);
    expect(kernels.sort()).toEqual(['dot', 'ell-spmv', 'gemv', 'trsv', 'waxpby']);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);

    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: join('test-artifacts', 'study-report.png'), fullPage: true });
    await page.close();
  });

  it('explains skipped parts at the top of the page, with reason and remedy; says so when nothing was skipped', () => {
    const assets = loadChartAssets();
    const none = renderReport({ ...result, skipped: [] }, assets);
    expect(none).toContain('nothing was skipped');
    const some = renderReport({ ...result, skipped: [{ part: 'MPFR in the multiple-precision sweep', reason: 'gmp-wasm is not installed', remedy: 'npm install gmp-wasm' }] }, assets);
    const at = some.indexOf('Not measured in this run');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(some.indexOf('<figure'));
    expect(some).toContain('<strong>MPFR in the multiple-precision sweep</strong> — gmp-wasm is not installed. <em>To include it:</em> npm install gmp-wasm.');
  });
});
