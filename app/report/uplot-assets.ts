/**
 * The charting library's files, read at report time and inlined into the page (so it works offline,
 * opened from disk). uPlot: ~50 kB, MIT, canvas-based, handles log axes and thousands of points.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** uPlot's minified script and stylesheet. */
export interface ChartAssets {
  readonly script: string;
  readonly style: string;
  readonly version: string;
}

/**
 * Loads uPlot from the installed package.
 * @throws Error naming the package when it is not installed
 */
export function loadChartAssets(): ChartAssets {
  const require = createRequire(import.meta.url);
  try {
    const script = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
    const style = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
    const version = (JSON.parse(readFileSync(require.resolve('uplot/package.json'), 'utf8')) as { version: string }).version;
    return { script, style, version };
  } catch (error) {
    throw new Error(`the HTML report needs the "uplot" package (npm install uplot): ${error instanceof Error ? error.message : String(error)}`);
  }
}
