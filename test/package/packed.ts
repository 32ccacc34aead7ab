/**
 * The package as a user gets it: `npm pack` (which runs the published build), the tarball installed into a fresh
 * project by `npm ci --offline` from the npm cache that the repository's own install filled. The project's lock is
 * the repository's lock without its dev packages, so the tree is the one npm builds for a consumer of modprec:
 * modprec's webgpu at the top, gpu.js's own (older) webgpu nested under gpu.js.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root. */
export const repo = resolve(import.meta.dirname, '../..');

/** A packed and installed copy of the package. */
export interface PackedPackage {
  /** The tarball `npm pack` wrote. */
  readonly tarball: string;
  /** The tarball's files, unpacked (what publint reads). */
  readonly unpacked: string;
  /** A consumer project with the tarball installed. */
  readonly consumer: string;
  /** Removes all of it (about 185 MB, most of it the consumer's node_modules). */
  remove(): void;
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
}

interface LockEntry { dev?: boolean; [key: string]: unknown }

/** Packs the package and installs it into a new temporary project (offline). */
export function packAndInstall(): PackedPackage {
  const work = mkdtempSync(join(tmpdir(), 'modprec-package-'));
  run('npm', ['pack', '--silent', '--pack-destination', work], repo);
  const name = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!name) throw new Error(`npm pack wrote no tarball into ${work}`);
  const tarball = join(work, name);
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], work);

  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const repoLock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
  const spec = `file:../${name}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', version: '1.0.0', dependencies: { modprec: spec } },
    'node_modules/modprec': {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: manifest.license,
      dependencies: manifest.dependencies,
      optionalDependencies: manifest.optionalDependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(repoLock.packages as Record<string, LockEntry>)) {
    if (path !== '' && !entry.dev) packages[path] = entry;
  }
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies: { modprec: spec } }, null, 2));
  writeFileSync(join(consumer, 'package-lock.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
  // --ignore-scripts: gpu.js's optional `gl` would compile a native addon; nothing here uses it.
  try {
    run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], consumer);
  } catch (e) {
    const stderr = String((e as { stderr?: unknown }).stderr ?? '');
    throw new Error(`installing the tarball offline failed; the npm cache must hold every production package of package-lock.json, which \`npm ci\` (scripts/setup.sh) puts there:\n${stderr.slice(-2000)}`);
  }
  return { tarball, unpacked, consumer, remove: () => rmSync(work, { recursive: true, force: true }) };
}

/** Runs a script in the consumer project with Node and returns its stdout. */
export function runIn(consumer: string, file: string, source: string, env: Record<string, string> = {}): string {
  writeFileSync(join(consumer, file), source);
  return execFileSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
}
