/**
 * `ddTrsvWindow` (kernels/trsv/trsv-window-update-source.ts), the six variants ./trsv-dd-window.test.ts leaves out, dd
 * and f64 storage, views (a row-major sub-range A, x of stride −2 or −1), 128- and 256-row blocks (16 terms a lane: two
 * window steps): opt-in,
 * MODPREC_SLOW_TESTS=1 (each variant compiles its own shaders, ≈ 10–15 s on llvmpipe). x within trsvBound (backend
 * 'gpu', the same block size) of the exact rational solution (./trsv-dd-window-case.ts).
 */
import { afterEach, describe, it } from 'vitest';
import { setTrsvKernelSwitches, trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { windowWithinBound, type WindowCase } from './trsv-dd-window-case.js';

const initial = trsvKernelSwitches();
afterEach(() => {
  setTrsvKernelSwitches(initial);
});

const slow = process.env.MODPREC_SLOW_TESTS !== '1';

const cases: WindowCase[] = [
  { storage: 'dd', n: 150, uplo: 'L', trans: 'N', diag: 'U', conditioning: 'ill', layout: 'col', incX: 1, blockSize: 64, W: 64, F: 32, seed: 31 },
  { storage: 'f64', n: 150, uplo: 'L', trans: 'T', diag: 'N', conditioning: 'well', layout: 'sub-row', incX: -2, blockSize: 64, W: 32, F: 64, seed: 37 },
  { storage: 'dd', n: 140, uplo: 'L', trans: 'T', diag: 'U', conditioning: 'ill', layout: 'col', incX: 1, blockSize: 64, W: 256, F: 256, seed: 41 },
  { storage: 'f64', n: 260, uplo: 'U', trans: 'N', diag: 'N', conditioning: 'ill', layout: 'col', incX: 1, blockSize: 128, W: 64, F: 32, seed: 43 },
  { storage: 'dd', n: 200, uplo: 'U', trans: 'N', diag: 'U', conditioning: 'well', layout: 'sub-row', incX: -1, blockSize: 64, W: 128, F: 16, seed: 47 },
  // 256-row blocks, 16 near lanes: 16 terms a lane, two steps of the window.
  { storage: 'dd', n: 300, uplo: 'U', trans: 'T', diag: 'N', conditioning: 'well', layout: 'col', incX: 1, blockSize: 256, W: 16, F: 32, seed: 53 },
];

describe('double-double TRSV, update terms in GEMV\'s window (ddTrsvWindow), the other variants', () => {
  for (const c of cases) {
    it.skipIf(slow)(`${c.storage} storage, ${c.uplo} ${c.trans} ${c.diag}, ${c.conditioning} conditioned, n ${c.n}, blocks of ${c.blockSize}, W ${c.W}, F ${c.F}, A ${c.layout}, incX ${c.incX}: within trsvBound`, async () => {
      await windowWithinBound(c);
    });
  }
});
