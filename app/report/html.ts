/**
 * The HTML report: one self-contained page (uPlot, styles, data and script inlined; no network at view
 * time) with the run's metadata, the summary table and every chart.
 * @module
 */
import { summaryRows } from './aggregate.js';
import { plotSpecs, type PlotSpec } from './plot-specs.js';
import { PAGE_SCRIPT } from './page-script.js';
import type { ChartAssets } from './uplot-assets.js';
import type { StudyResult } from '../study/types.js';

/** HTML-escapes text. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe to embed in a script element (no `</script>`, no HTML comment openers). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** What each section shows and how to read it (the long version is docs/study.md). */
const SECTIONS: readonly { id: PlotSpec['section']; title: string; guide: string }[] = [
  { id: 'accuracy', title: 'Accuracy', guide: 'Relative error against a double-double reference of the fp64 inputs. Configurations sharing a storage format share its input rounding (about its unit roundoff); what the arithmetic adds on top grows with the size. A low-precision storage read through a higher-precision arithmetic (e.g. f32/f64) should sit at or below the all-low-precision line (f32/f32), the gap widening with n — the accessor\'s accuracy gain (seed 004, Figures 7, 9, 11, 14).' },
  { id: 'speed', title: 'Speed', guide: 'Median GFLOP/s per call. Memory-bound kernels should run faster with narrower storage; on the CPU in JavaScript the conversion and fp32 emulation (Math.fround) cost more than on a GPU, so compare f32/f64 with f64/f64 rather than with native-fp32 expectations.' },
  { id: 'speedup', title: 'Speed-up over fp64', guide: 'Time of fp64/fp64 divided by the configuration\'s time at the same size: above 1, narrower storage paid off.' },
  { id: 'roofline', title: 'Experimental roofline', guide: 'The accessor\'s overhead is the gap between "plain f64" and "accessor f64/f64" (ideally none); fp32 storage with fp64 arithmetic ("accessor f32/f64") should follow the fp32 line where the loop is memory-bound (low intensity) and the fp64 line where it is compute-bound (seed 004, section 3).' },
  { id: 'precision', title: 'Multiple-precision sweep', guide: 'Throughput as the precision grows: MPFR\'s cost per operation grows slowly with the bits; formats of the library (double-double, RNS) appear as they are registered (seed 000 Table 5, seed 001 Fig. 3).' },
];

function summaryHtml(result: StudyResult): string {
  const rows = summaryRows(result.measurements);
  if (rows.length === 0) return '<p>No kernel measurements.</p>';
  const sci = (v: number | null): string => (v === null ? '—' : v.toExponential(2));
  const fix = (v: number | null, d: number): string => (v === null ? '—' : v.toFixed(d));
  const body = rows.map((r) => `<tr><td>${escapeHtml(r.kernel)}</td><td>${escapeHtml(r.configuration)}</td><td>${escapeHtml(r.at)}</td>` +
    `<td>${sci(r.relativeError)}</td><td>${sci(r.arithmeticError)}</td><td>${fix(r.gflops, 3)}</td><td>${fix(r.gbps, 2)}</td><td>${fix(r.speedup, 2)}</td></tr>`).join('\n');
  return `<table class="summary"><thead><tr><th>kernel</th><th>storage/arithmetic</th><th>at</th><th>relative error</th>` +
    `<th>arithmetic error</th><th>GFLOP/s</th><th>GB/s</th><th>speed-up vs fp64</th></tr></thead><tbody>\n${body}\n</tbody></table>` +
    '<p class="hint">relative error: against the exact result of the fp64 inputs; arithmetic error: against the exact result of the inputs as stored (what the arithmetic adds).</p>';
}

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, Segoe UI, Roboto, sans-serif; margin: 0 auto; max-width: 1600px; padding: 16px 24px; color: #222; }
h1 { font-size: 22px; margin: 8px 0; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ddd; }
h3 { font-size: 14px; margin: 4px 0; }
.meta { color: #555; } .meta code { font-size: 12px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 18px; }
figure.plot { margin: 0; padding: 8px; border: 1px solid #e4e4e4; border-radius: 6px; background: #fff; }
figcaption, .guide, .hint { color: #555; font-size: 12.5px; }
table.summary { border-collapse: collapse; font-size: 12.5px; }
table.summary td, table.summary th { border-bottom: 1px solid #eee; padding: 2px 10px; text-align: right; }
table.summary td:nth-child(-n+3), table.summary th:nth-child(-n+3) { text-align: left; }
.status-interrupted { color: #b00; font-weight: bold; }
`;

/**
 * The report page of `result`.
 * @param result - the study result
 * @param assets - uPlot's script and stylesheet, inlined
 * @returns the HTML text
 */
export function renderReport(result: StudyResult, assets: ChartAssets): string {
  const specs = plotSpecs(result.measurements);
  const sections = SECTIONS.map((s) => {
    const plots = specs.filter((p) => p.section === s.id);
    if (plots.length === 0) return '';
    const figures = plots.map((p) => `<figure class="plot"><h3>${escapeHtml(p.title)}</h3><div class="chart" id="${escapeHtml(p.id)}"></div>` +
      `<figcaption>${escapeHtml(p.caption)}</figcaption></figure>`).join('\n');
    return `<section id="section-${s.id}"><h2>${escapeHtml(s.title)}</h2><p class="guide">${escapeHtml(s.guide)}</p><div class="grid">\n${figures}\n</div></section>`;
  }).join('\n');
  const versions = Object.entries(result.run.versions).map(([k, v]) => `${escapeHtml(k)} ${escapeHtml(v)}`).join(', ');
  const notes = result.notes.length === 0 ? '' : `<ul class="notes">${result.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>modprec study — ${escapeHtml(result.run.started)}</title>
<style>${assets.style}</style><style>${STYLE}</style></head>
<body>
<h1>modprec study report</h1>
<p class="meta">${escapeHtml(result.options.mode)} study, started ${escapeHtml(result.run.started)} on ${escapeHtml(result.run.machine)}; ${versions}.
Status: <span class="status-${result.status}">${result.status}</span>, ${result.measurements.length} measurements.<br>
Reference: ${escapeHtml(result.run.reference)}.<br>Command: <code>${escapeHtml(result.run.command)}</code>.
Raw data: <a href="results.json">results.json</a>, <a href="results.csv">results.csv</a>.</p>
${notes}
<h2>Summary</h2>
${summaryHtml(result)}
${sections}
<script>${assets.script}</script>
<script type="application/json" id="plot-data">${scriptJson(specs)}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
