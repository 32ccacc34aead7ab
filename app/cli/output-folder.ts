/**
 * The report folder is checked before the study starts: a folder that cannot be created or written would
 * otherwise lose a whole study at the end.
 * @module
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './usage-error.js';

/**
 * Creates `folder` if needed and writes (then removes) a probe file in it.
 * @param folder - absolute path of the report folder
 * @throws {@link UsageError} naming `--out`, the folder and the system's reason when either fails
 */
export function checkOutputFolder(folder: string): void {
  const probe = join(folder, `.modprec-write-check-${process.pid}`);
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    const reason = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
    throw new UsageError(`--out: cannot write the report into "${folder}" (${reason}); choose a writable folder, nothing was run`);
  }
}
