/**
 * A tiny study shared by the end-to-end tests: minimum sizes, two seeds, every kernel, roofline and
 * precision sweep, two hand-written Matrix Market files standing in for the SuiteSparse folder, and
 * timing cut to one short sample (figures are checked for plausibility, not speed).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStudy } from '../../app/study/run-study.js';
import { defaultConfigurations } from '../../app/study/defaults.js';
import { STUDY_KERNELS, type StudyOptions, type StudyResult } from '../../app/study/types.js';

/** A 6×6 nonsymmetric matrix with rows of 1 to 4 entries (irregular ELL padding). */
const IRREGULAR = `%%MatrixMarket matrix coordinate real general
6 6 12
1 1 4.0
1 3 -1.5
1 6 0.25
1 2 2.0
2 2 3.0
3 1 -2.0
3 3 5.5
4 4 1.0
5 2 0.5
5 5 -3.0
6 6 2.0
6 1 1.0
`;
/** A symmetric 4×4 tridiagonal (lower triangle stored). */
const SYMMETRIC = `%%MatrixMarket matrix coordinate real symmetric
4 4 7
1 1 2
2 1 -1
2 2 2
3 2 -1
3 3 2
4 3 -1
4 4 2
`;

/** Writes the two matrices into a new temporary folder and returns it. */
export function tinyMatrixFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'modprec-matrices-'));
  writeFileSync(join(dir, 'irregular.mtx'), IRREGULAR);
  writeFileSync(join(dir, 'tridiagonal.mtx'), SYMMETRIC);
  return dir;
}

/** The options of the tiny study. */
export function tinyOptions(): StudyOptions {
  const sizes = [8, 24];
  return {
    mode: 'quick', kernels: STUDY_KERNELS, configurations: defaultConfigurations('quick'), backends: ['cpu'],
    sizes: Object.fromEntries(STUDY_KERNELS.map((k) => [k, sizes])) as unknown as StudyOptions['sizes'],
    seeds: [1, 2], distributions: ['uniform', 'normal'], rooflineIntensities: [2, 16], rooflineLength: 4096,
    precisionSweep: true, minSampleSeconds: 1e-4, samples: 1, matrixFolder: tinyMatrixFolder(), matrices: [],
  };
}

let shared: Promise<StudyResult> | undefined;
/** The tiny study's result (run once per test file). */
export function tinyStudy(): Promise<StudyResult> {
  shared ??= runStudy(tinyOptions(), { command: 'test tiny study' });
  return shared;
}
