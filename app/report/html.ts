/**
 * The HTML report: one self-contained page (uPlot, styles, data and script inlined; no network at view
 * time). Order: what was not measured and why; per kernel the figures that help choose a format (error
 * against speed with the Pareto front, measured error beside its a-priori bound, error and speed-up
 * against size); the roofline and the multiple-precision sweep; then the summary table and the notes.
 * @module
 */
import { summaryRows } from './aggregate.js';
import { chartsOf, figureSpecs, KERNEL_TITLES, type ChartSpec, type FigureSpec, type SeriesSpec } from './plot-specs.js';
import { PAGE_SCRIPT } from './page-script.js';
import { solverFigures } from './solver-plots.js';
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

/** What each kernel computes, in words (the section's first line). */
const KERNEL_INTROS: Readonly<Record<string, string>> = {
  dot: 'DOT computes the dot product xᵀy of two vectors: one number from 2n stored values.',
  gemv: 'GEMV computes y = A·x for a dense n×n matrix: the matrix dominates the memory traffic.',
  trsv: 'TRSV solves T·x = b for a triangular matrix T (the factors of an LU factorisation): its error also depends on how well-conditioned T is.',
  'ell-spmv': 'ELL SpMV computes y = A·x for a sparse matrix stored in the ELL format (rows padded to the same length).',
  waxpby: 'WAXPBY computes w = α·x + β·y element by element.',
};
/** Sections after the kernels. */
const OTHER_SECTIONS: Readonly<Record<string, { title: string; intro: string }>> = {
  roofline: { title: 'Rooflines', intro: 'Where time goes: on the CPU, what the accessor\'s conversions cost in a synthetic loop whose arithmetic per value grows from left to right; on the GPU (when one ran), each kernel against the device\'s copy bandwidth.' },
  precision: { title: 'Multiple precision', intro: 'GEMV and WAXPBY at precisions beyond fp64: the library\'s double-double and RNS formats, and GNU MPFR for comparison.' },
  solvers: { title: 'Solvers', intro: 'CG and restarted GMRES solving A·x = A·1 with their vectors (CG) or Krylov basis (GMRES) stored in each format: iterations, time to tolerance and the final true residual.' },
};

/** A legend swatch: the series' line with its dash pattern (when it has a line) and its marker, in its colour. */
function swatch(s: SeriesSpec): string {
  const dash = s.dash.length > 0 ? ` stroke-dasharray="${s.dash.join(' ')}"` : '';
  const line = `<line x1="1" y1="7" x2="45" y2="7" stroke="${s.color}" stroke-width="2"${dash}${s.line ? '' : ' opacity="0.35"'}/>`;
  const marker = s.marker > 0 ? `<circle cx="23" cy="7" r="${Math.min(5, s.marker / 2)}" fill="${s.color}"/>` : '';
  return `<svg class="swatch" width="46" height="14" aria-hidden="true">${line}${marker}</svg>`;
}

function legendHtml(chart: ChartSpec): string {
  return `<ul class="legend">${chart.series.map((s) => `<li data-color="${s.color}" data-dash="${s.dash.join(' ')}">${swatch(s)}${escapeHtml(s.label)}</li>`).join('')}</ul>`;
}

function figureHtml(f: FigureSpec): string {
  const picker = f.charts.length > 1
    ? `<label class="pick">Show: <select class="facets">${f.charts.map((c) => `<option value="${escapeHtml(c.id)}">${escapeHtml(c.facet)}</option>`).join('')}</select></label>`
    : '';
  const facets = f.charts.map((c, i) => `<div class="facet" data-chart="${escapeHtml(c.id)}"${i > 0 ? ' hidden' : ''}>` +
    `<div class="chart" id="${escapeHtml(c.id)}"></div>${legendHtml(c)}</div>`).join('\n');
  return `<figure class="plot" id="figure-${escapeHtml(f.id)}"><h3>${escapeHtml(f.title)}</h3>${picker}\n${facets}\n<figcaption>${escapeHtml(f.caption)}</figcaption></figure>`;
}

const sci = (v: number | null): string => (v === null ? '—' : !Number.isFinite(v) ? String(v) : v === 0 ? '0' : v.toExponential(1));
const fix = (v: number | null, d: number): string => (v === null ? '—' : v.toFixed(d));
/** Memory saved against fp64 as a percentage; a wider storage says how many times fp64's memory it takes. */
const memory = (saved: number | null): string => (saved === null ? '—' : saved >= 0 ? `${Math.round(saved * 100)} %` : `none (${+(1 - saved).toFixed(2)}× fp64)`);

function summaryHtml(result: StudyResult): string {
  const rows = summaryRows(result.measurements);
  if (rows.length === 0) return '<p>No kernel measurements.</p>';
  const body = rows.map((r) => `<tr class="${r.pareto ? 'front' : ''}"><td>${escapeHtml(r.kernel)}</td><td>${escapeHtml(r.configuration)}</td><td>${escapeHtml(r.at)}</td>` +
    `<td>${sci(r.error?.median ?? null)}</td><td>${r.error ? `${sci(r.error.min)} – ${sci(r.error.max)}` : '—'}</td><td>${sci(r.bound)}</td>` +
    `<td>${fix(r.bytesPerElement, 0)}</td><td>${memory(r.memorySaved)}</td>` +
    `<td>${fix(r.gflops, 3)}</td><td>${fix(r.gbps, 2)}</td><td>${fix(r.speedup, 2)}</td><td>${r.pareto ? '✓' : ''}</td></tr>`).join('\n');
  return `<table class="summary"><thead><tr><th>kernel</th><th>storage/arithmetic</th><th>at</th><th>error (median)</th><th>error min – max over seeds</th>` +
    `<th>a-priori bound</th><th>bytes per element</th><th>memory saved vs fp64</th><th>GFLOP/s</th><th>GB/s</th><th>speed-up vs fp64</th><th>Pareto front</th></tr></thead><tbody>\n${body}\n</tbody></table>` +
    '<p class="hint">Error: norm-wise relative error against an exact reference of the fp64 inputs. Bound: the largest a-priori bound over the seeds (— where the kernel has none). ' +
    'Bytes per element: what one stored value takes (the scales of integer storage not counted); memory saved: against 8-byte fp64. ' +
    'Pareto front: no other configuration of the kernel is both faster and more accurate here (rows in bold).</p>';
}

function skippedHtml(result: StudyResult): string {
  if (result.skipped.length === 0) return '<p class="complete-note">Every part of the study that was asked for ran: nothing was skipped.</p>';
  const items = result.skipped.map((s) => `<li><strong>${escapeHtml(s.part)}</strong> — ${escapeHtml(s.reason)}.${s.remedy ? ` <em>To include it:</em> ${escapeHtml(s.remedy)}.` : ''}</li>`).join('');
  return `<section id="skipped" class="skipped"><h2>Not measured in this run</h2><p>These parts were left out, so the charts below do not show them:</p><ul>${items}</ul></section>`;
}

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, Segoe UI, Roboto, sans-serif; margin: 0 auto; max-width: 1640px; padding: 16px 24px; color: #222; }
h1 { font-size: 22px; margin: 8px 0; } h2 { font-size: 18px; margin-top: 30px; border-bottom: 1px solid #ddd; }
h3 { font-size: 14px; margin: 2px 0 6px; }
.meta { color: #555; } .meta code { font-size: 12px; }
.skipped { background: #fff6e5; border: 1px solid #f0c36d; border-radius: 6px; padding: 4px 16px; }
.skipped h2 { border: none; margin-top: 8px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(600px, 1fr)); gap: 18px; }
figure.plot { margin: 0; padding: 10px; border: 1px solid #e4e4e4; border-radius: 6px; background: #fff; }
figcaption, .intro, .hint { color: #444; font-size: 12.5px; }
.pick { font-size: 12.5px; display: block; margin-bottom: 4px; }
ul.legend { list-style: none; padding: 0; margin: 4px 0 6px; display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 12px; }
ul.legend li { display: flex; align-items: center; gap: 4px; }
table.summary { border-collapse: collapse; font-size: 12.5px; }
table.summary td, table.summary th { border-bottom: 1px solid #eee; padding: 2px 9px; text-align: right; }
table.summary td:nth-child(-n+3), table.summary th:nth-child(-n+3) { text-align: left; }
table.summary td { white-space: nowrap; }
table.summary tr.front td { font-weight: 600; }
.status-interrupted { color: #b00; font-weight: bold; }
`;

/**
 * The report page of `result`.
 * @param result - the study result
 * @param assets - uPlot's script and stylesheet, inlined
 * @returns the HTML text
 */
export function renderReport(result: StudyResult, assets: ChartAssets): string {
  const figures = [...figureSpecs(result.measurements), ...solverFigures(result.measurements)];
  const sectionIds = [...new Set(figures.map((f) => f.section))];
  const sections = sectionIds.map((id) => {
    const heading = KERNEL_TITLES[id] ?? OTHER_SECTIONS[id]?.title ?? id;
    const intro = KERNEL_INTROS[id] ?? OTHER_SECTIONS[id]?.intro ?? '';
    const body = figures.filter((f) => f.section === id).map(figureHtml).join('\n');
    return `<section id="section-${escapeHtml(id)}"><h2>${escapeHtml(heading)}</h2><p class="intro">${escapeHtml(intro)}</p><div class="grid">\n${body}\n</div></section>`;
  }).join('\n');
  const versions = Object.entries(result.run.versions).map(([k, v]) => `${escapeHtml(k)} ${escapeHtml(v)}`).join(', ');
  const notes = result.notes.length === 0 ? '' :
    `<details class="notes"><summary>Notes on this run (${result.notes.length})</summary><ul>${result.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul></details>`;
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
${skippedHtml(result)}
<p class="intro">How to read it: every kernel has a chart of error against speed — start there; the formats on its Pareto front are the ones worth choosing.
The next charts show that the measured errors stay within the library's a-priori bounds, how the error and the speed change with the problem size, and the spread over random inputs.
The table at the end lists every configuration with its memory per element.</p>
${sections}
<h2 id="summary">Summary: every configuration at a glance</h2>
${summaryHtml(result)}
${notes}
<script>${assets.script}</script>
<script type="application/json" id="plot-data">${scriptJson(chartsOf(figures))}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
