/**
 * Test fixtures that run in a child Node process (a flag this process lacks, or a process that must end by itself):
 * bundled with rolldown (vite's bundler) from TypeScript, then started with the Node binary running the tests.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles a fixture into node_modules/.cache/modprec-<name>/<name>.mjs — inside the repository, so that the bundle
 * resolves the packages it leaves external from node_modules.
 * @param input - the fixture, relative to the repository root
 * @param name - the bundle's name
 * @param external - the packages the fixture imports, left to node_modules (besides anything under node_modules)
 * @returns the bundle's path
 */
export async function bundleFixture(input: string, name: string, external: readonly string[]): Promise<string> {
  const { build } = await import('rolldown');
  const dir = join(root, 'node_modules', '.cache', `modprec-${name}`);
  await build({
    input: join(root, input), platform: 'node', logLevel: 'silent',
    external: [/node_modules/, ...external],
    output: { dir, format: 'esm', entryFileNames: `${name}.mjs` },
  });
  return join(dir, `${name}.mjs`);
}

/**
 * Runs Node with `args` in a child process until it ends: its exit status and what it wrote. No time limit (a fixed
 * one fails on a slow enough machine): a child that never ends hangs the test, which the CI job's limit reports.
 * @param args - Node's arguments (flags, the script, its arguments)
 * @param env - the child's environment (default: this process's)
 * @returns the exit status, stdout and stderr
 */
export function runNode(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    // 'close', not 'exit': the child's stdout may still hold its last line when 'exit' fires.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
