/**
 * Where the tests find the SuiteSparse matrices: the copy bundled in test/fixtures/matrices (the same files
 * and checksums as shared/matrices, so the suite runs on a fresh clone with nothing beside it).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the bundled Matrix Market files. */
export const matricesFolder = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'matrices');
