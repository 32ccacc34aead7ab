#!/usr/bin/env node
// Reports import cycles among the package's own TypeScript modules and exits 1 when there is one.
// Edges are static imports and re-exports that load a module at run time: `import type`, `export type` and
// imports whose every name is `type` are erased by the compiler and never run, so they do not count;
// dynamic `import()` is lazy by design (the GPU entry) and does not count either.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const folders = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['src', 'accessors', 'kernels', 'app'].filter((f) => existsSync(join(root, f)));

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* tsFiles(path);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) yield path;
  }
}

/** Whether an import or export declaration is erased at compile time. */
function typeOnly(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false; // side-effect import
    if (clause.isTypeOnly) return true;
    if (clause.name) return false;
    const bindings = clause.namedBindings;
    if (!bindings || ts.isNamespaceImport(bindings)) return false;
    return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** Runtime imports of one file, as absolute .ts paths (relative specifiers only). */
function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out = [];
  for (const node of source.statements) {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier) continue;
    const spec = node.moduleSpecifier.text;
    if (!spec.startsWith('.') || typeOnly(node)) continue;
    out.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
  }
  return out;
}

const graph = new Map();
for (const folder of folders) for (const file of tsFiles(join(root, folder))) graph.set(file, importsOf(file));

// Tarjan's strongly connected components: every component of more than one file (or a file importing itself) is a cycle.
let counter = 0;
const index = new Map(), low = new Map(), stack = [], onStack = new Set(), cycles = [];
function visit(v) {
  index.set(v, counter); low.set(v, counter); counter++;
  stack.push(v); onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const component = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component);
  }
}
for (const v of graph.keys()) if (!index.has(v)) visit(v);

if (cycles.length === 0) {
  console.log(`import-cycles: ${graph.size} modules, no cycle`);
} else {
  for (const c of cycles) console.error(`import cycle among ${c.length} files:\n  ${c.map((f) => relative(root, f)).sort().join('\n  ')}`);
  process.exitCode = 1;
}
