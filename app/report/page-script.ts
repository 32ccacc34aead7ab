/**
 * The script of the report page (plain browser JavaScript, kept as a string): reads the plot specs
 * embedded in the page and draws each with uPlot. Logarithmic y axes are drawn as log10 of the values
 * on a linear scale with 10^k labels: uPlot's own log scale hangs on ranges reaching below ~1e-16
 * (double-double errors reach 1e-33). Each chart's host element gets `data-points` (the
 * number of values drawn) and the body `data-rendered`, which the browser test checks.
 * @module
 */

/** Source of the page script. */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('plot-data').textContent);
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
    '#7f7f7f', '#bcbd22', '#393b79', '#ad494a', '#637939', '#843c39', '#5254a3', '#6b6ecf'];
  // A configuration "storage/arithmetic" is drawn in its storage's colour with its arithmetic's dash
  // pattern, so the two choices read apart on every chart; other labels get a colour each.
  var dashes = [null, [9, 4], [2, 3], [12, 3, 2, 3], [5, 5]];
  var colors = {}, arithmetics = {}, nextColor = 0, nextDash = 0;
  function colorOf(key) {
    if (!(key in colors)) { colors[key] = palette[nextColor % palette.length]; nextColor++; }
    return colors[key];
  }
  function styleOf(label) {
    var m = /^([^\/ ]+)\/([^\/ ]+)$/.exec(label); // arithmetic with its backend: f32 and f32@gpu differ
    // A measured line and its bound ("… measured", "… bound") share a colour.
    if (!m) return { color: colorOf(label.replace(/ (measured|bound)$/, '')), dash: null };
    if (!(m[2] in arithmetics)) { arithmetics[m[2]] = dashes[nextDash % dashes.length]; nextDash++; }
    return { color: colorOf('storage:' + m[1]), dash: arithmetics[m[2]] };
  }
  function sci(v) {
    if (v === 0) return '0';
    var e = Math.floor(Math.log10(Math.abs(v)) + 1e-9);
    var m = v / Math.pow(10, e);
    if (Math.abs(m - Math.round(m)) < 1e-6) return Math.round(m) + 'e' + e;
    return m.toFixed(2) + 'e' + e;
  }
  function plain(v) { return Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-2 && v !== 0) ? sci(v) : String(+v.toPrecision(3)); }
  var drawn = 0;
  specs.forEach(function (spec) {
    var host = document.getElementById(spec.id);
    var width = Math.max(320, Math.min(host.clientWidth || 600, 760));
    var cats = spec.categories;
    var xAxis = { label: spec.xLabel, stroke: '#333' };
    if (cats) {
      xAxis.splits = function () { return cats.map(function (_, i) { return i + 1; }); };
      xAxis.values = function (u, splits) { return splits.map(function (v) { return cats[v - 1] || ''; }); };
      xAxis.rotate = -35;
      xAxis.size = 70;
    } else {
      xAxis.values = function (u, splits) { return splits.map(function (v) { return v == null ? '' : plain(v); }); };
    }
    var yAxis = { label: spec.yLabel, stroke: '#333', size: 70,
      values: function (u, splits) { return splits.map(function (v) { return v == null ? '' : spec.yLog ? sci(Math.pow(10, v)) : plain(v); }); } };
    if (spec.yLog) {
      // Whole decades, at most about eight labels.
      yAxis.splits = function (u, axisIdx, min, max) {
        var lo = Math.floor(min), hi = Math.ceil(max), out = [];
        if (max - min < 2.5) {
          // Within a few decades: 1, 2 and 5 times each power of ten.
          for (var d = lo; d <= hi; d++) [1, 2, 5].forEach(function (m) { var v = d + Math.log10(m); if (v >= min && v <= max) out.push(v); });
          return out;
        }
        var step = Math.max(1, Math.ceil((hi - lo) / 8));
        for (var k = Math.ceil(min); k <= Math.floor(max); k += step) out.push(k);
        return out;
      };
    }
    var toY = function (v) { return v === null ? null : spec.yLog ? Math.log10(v) : v; };
    var legendValue = function (u, v) { return v == null ? '—' : spec.yLog ? sci(Math.pow(10, v)) : plain(v); };
    var xScale = spec.xLog ? { time: false, distr: 3, log: 10 } : { time: false };
    if (cats) xScale.range = [0.5, cats.length + 0.5];
    var series = [{ label: spec.xLabel }];
    spec.series.forEach(function (s) {
      var st = styleOf(s.label);
      var c = st.color;
      var opt = { label: s.label, stroke: c, width: 1.75, spanGaps: true, value: legendValue, points: { show: true, size: s.pointsOnly ? 9 : 5, fill: c } };
      if (st.dash) opt.dash = st.dash;
      if (s.dashed) opt.dash = [6, 4];
      if (s.pointsOnly) opt.paths = function () { return null; };
      series.push(opt);
    });
    var data = [spec.xs].concat(spec.series.map(function (s) { return s.values.map(toY); }));
    new uPlot({ width: width, height: 320, scales: { x: xScale, y: {} },
      axes: [xAxis, yAxis], series: series, legend: { live: true } }, data, host);
    var points = 0;
    spec.series.forEach(function (s) { s.values.forEach(function (v) { if (v !== null && isFinite(v)) points++; }); });
    host.setAttribute('data-points', String(points));
    drawn++;
  });
  document.body.setAttribute('data-rendered', String(drawn));
})();
`;
