/**
 * The script of the report page (plain browser JavaScript, kept as a string): reads the chart specs
 * embedded in the page and draws each with uPlot, in the colours and dash patterns the spec gives (the
 * legends are HTML written with the page, so they show the same patterns). Logarithmic y axes are drawn
 * as log10 of the values on a linear scale with 10^k labels: uPlot's own log scale hangs on ranges
 * reaching below ~1e-16 (double-double errors reach 1e-33). Whiskers (min–max over seeds) and point
 * labels are drawn on the canvas after the series. A figure with several facets shows one at a time,
 * picked from its list. Each chart's host element gets `data-points` (the number of values drawn) and the
 * body `data-rendered` (charts drawn), which the browser test checks.
 * @module
 */

/** Source of the page script. */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var charts = JSON.parse(document.getElementById('plot-data').textContent);
  function sci(v) {
    if (v === 0) return '0';
    var e = Math.floor(Math.log10(Math.abs(v)) + 1e-9);
    var m = v / Math.pow(10, e);
    if (Math.abs(m - Math.round(m)) < 1e-6) return Math.round(m) + 'e' + e;
    return m.toFixed(1) + 'e' + e;
  }
  function plain(v) { return Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-2 && v !== 0) ? sci(v) : String(+v.toPrecision(3)); }
  // Facet lists: show the picked chart of a figure, hide the others.
  Array.prototype.forEach.call(document.querySelectorAll('select.facets'), function (select) {
    select.addEventListener('change', function () {
      Array.prototype.forEach.call(select.closest('figure').querySelectorAll('.facet'), function (f) {
        f.hidden = f.getAttribute('data-chart') !== select.value;
      });
    });
  });
  var drawn = 0;
  charts.forEach(function (spec) {
    var host = document.getElementById(spec.id);
    var box = host.closest('figure'); var width = Math.max(360, Math.min((box && box.clientWidth ? box.clientWidth - 20 : 640), 760));
    var cats = spec.categories;
    var toY = function (v) { return v == null ? null : spec.yLog ? Math.log10(v) : v; };
    var xAxis = { label: spec.xLabel, stroke: '#333' };
    if (cats) {
      xAxis.splits = function () { return cats.map(function (_, i) { return i + 1; }); };
      xAxis.values = function (u, splits) { return splits.map(function (v) { return cats[v - 1] || ''; }); };
      xAxis.rotate = -40;
      xAxis.size = 90;
    } else {
      xAxis.values = function (u, splits) { return splits.map(function (v) { return v == null ? '' : plain(v); }); };
    }
    var yAxis = { label: spec.yLabel, stroke: '#333', size: 64,
      values: function (u, splits) { return splits.map(function (v) { return v == null ? '' : spec.yLog ? sci(Math.pow(10, v)) : plain(v); }); } };
    if (spec.yLog) {
      yAxis.splits = function (u, axisIdx, min, max) {
        var lo = Math.floor(min), hi = Math.ceil(max), out = [];
        if (max - min < 2.5) {
          for (var d = lo; d <= hi; d++) [1, 2, 5].forEach(function (m) { var v = d + Math.log10(m); if (v >= min && v <= max) out.push(v); });
          return out;
        }
        var step = Math.max(1, Math.ceil((hi - lo) / 8));
        for (var k = Math.ceil(min); k <= Math.floor(max); k += step) out.push(k);
        return out;
      };
    }
    // Whiskers and labels must fit in the y range too.
    var ys = [];
    spec.series.forEach(function (s) { [s.values, s.low || [], s.high || []].forEach(function (a) { a.forEach(function (v) { if (v != null) ys.push(toY(v)); }); }); });
    var yMin = Math.min.apply(null, ys), yMax = Math.max.apply(null, ys);
    var pad = spec.yLog ? 0.3 : (yMax - yMin) * 0.08 || 0.5;
    var yScale = { range: [yMin - pad, yMax + pad] };
    var xScale = spec.xLog ? { time: false, distr: 3, log: 10 } : { time: false };
    if (cats) xScale.range = [0.4, cats.length + 0.6];
    var series = [{ label: spec.xLabel }];
    spec.series.forEach(function (s) {
      var opt = { label: s.label, stroke: s.color, width: 2, spanGaps: true, dash: s.dash.length ? s.dash : undefined,
        points: { show: s.marker > 0, size: s.marker, fill: s.color, stroke: s.color } };
      if (!s.line) opt.paths = function () { return null; };
      series.push(opt);
    });
    function drawExtras(u) {
      var ctx = u.ctx;
      ctx.save();
      spec.series.forEach(function (s) {
        if (!s.low || !s.high) return;
        ctx.strokeStyle = s.color;
        ctx.lineWidth = 1.5 * devicePixelRatio;
        ctx.setLineDash([]);
        spec.xs.forEach(function (x, i) {
          var lo = s.low[i], hi = s.high[i];
          if (lo == null || hi == null || lo === hi) return;
          var px = u.valToPos(x, 'x', true), p0 = u.valToPos(toY(lo), 'y', true), p1 = u.valToPos(toY(hi), 'y', true), w = 4 * devicePixelRatio;
          ctx.beginPath();
          ctx.moveTo(px, p0); ctx.lineTo(px, p1);
          ctx.moveTo(px - w, p0); ctx.lineTo(px + w, p0);
          ctx.moveTo(px - w, p1); ctx.lineTo(px + w, p1);
          ctx.stroke();
        });
      });
      // Labels of the front first; a label that would overlap one already drawn is left out (the table has them all).
      var taken = [];
      (spec.labels || []).slice().sort(function (a, b) { return (b.emphasis ? 1 : 0) - (a.emphasis ? 1 : 0); }).forEach(function (l) {
        var px = u.valToPos(l.x, 'x', true) + 7 * devicePixelRatio, py = u.valToPos(toY(l.y), 'y', true);
        ctx.font = (l.emphasis ? 'bold ' : '') + (11 * devicePixelRatio) + 'px system-ui, sans-serif';
        var w = ctx.measureText(l.text).width, h = 12 * devicePixelRatio;
        var box = { x0: px, x1: px + w, y0: py - h / 2, y1: py + h / 2 };
        if (taken.some(function (t) { return box.x0 < t.x1 && t.x0 < box.x1 && box.y0 < t.y1 && t.y0 < box.y1; })) return;
        taken.push(box);
        ctx.fillStyle = l.emphasis ? '#111' : '#666';
        ctx.textBaseline = 'middle';
        ctx.fillText(l.text, px, py);
      });
      ctx.restore();
    }
    var data = [spec.xs].concat(spec.series.map(function (s) { return s.values.map(toY); }));
    new uPlot({ width: width, height: 340, scales: { x: xScale, y: yScale }, axes: [xAxis, yAxis], series: series,
      legend: { show: false }, hooks: { draw: [drawExtras] } }, data, host);
    var points = 0;
    spec.series.forEach(function (s) { s.values.forEach(function (v) { if (v !== null && isFinite(v)) points++; }); });
    host.setAttribute('data-points', String(points));
    drawn++;
  });
  document.body.setAttribute('data-rendered', String(drawn));
})();
`;
