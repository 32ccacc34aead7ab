/**
 * Runs a WebAssembly kernel; under the automatic choice (`backend: 'cpu'`), a Content-Security-Policy that
 * forbids compiling WebAssembly sends the call (and later ones) to the generated JavaScript instead. The refusal
 * comes from compiling, before anything is staged or written.
 * @module
 */
import { ModprecError } from '../../src/core/errors.js';
import type { BackendName } from '../../src/backends/backend.js';

/** Runs `run`; false when the automatic choice must fall back to JavaScript (nothing ran). */
export function runWasm(requested: BackendName, run: () => void): boolean {
  try {
    run();
    return true;
  } catch (e) {
    if (requested === 'cpu' && e instanceof ModprecError && e.code === 'CODE_GENERATION_BLOCKED') return false;
    throw e;
  }
}
