// Empties dist/ before the published build, so no stale file (a bench, an old source map, a moved module) is packed.
import { rmSync } from 'node:fs';
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
