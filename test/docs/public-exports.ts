/**
 * What the package's public entry points export, read with the TypeScript compiler API from the project's own
 * tsconfig (the program `npm run typecheck` builds): each export's declaration file, whether it is a function,
 * and the `@example` and `@group` tags of its doc comment.
 */
import ts from 'typescript';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './code-blocks.js';

export interface PublicExport {
  /** The exported name (as users import it). */
  name: string;
  /** The entry point that exports it, relative to the repository root. */
  entry: string;
  /** Where it is declared, relative to the repository root. */
  file: string;
  /** A function declaration, or a const bound to an arrow function / function expression. */
  isFunction: boolean;
  hasExample: boolean;
  /** The `@group` tag's text, or undefined. */
  group: string | undefined;
  /** The code of every ```ts block in its `@example` tags. */
  examples: string[];
}

function loadProgram(): ts.Program {
  const config = ts.readConfigFile(join(REPO_ROOT, 'tsconfig.json'), ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}

function isFunctionDeclaration(decl: ts.Declaration): boolean {
  if (ts.isFunctionDeclaration(decl)) return true;
  if (ts.isVariableDeclaration(decl) && decl.initializer) {
    let init: ts.Expression = decl.initializer;
    while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
    return ts.isArrowFunction(init) || ts.isFunctionExpression(init);
  }
  return false;
}

/** The doc-comment tags of a declaration (for a const: of its variable statement). */
function tagsOf(decl: ts.Declaration): readonly ts.JSDocTag[] {
  return ts.getJSDocTags(decl);
}

/** The ```ts blocks of an `@example` tag, from its source text with the comment's ` * ` margins removed. */
function exampleBlocks(tag: ts.JSDocTag): string[] {
  const raw = tag.getSourceFile().text.slice(tag.getStart(), tag.end);
  const text = raw.split('\n').map((l) => l.replace(/^\s*\*(?: |$)/, '')).join('\n');
  return [...text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
}

function tagText(tag: ts.JSDocTag): string {
  return (typeof tag.comment === 'string' ? tag.comment : ts.getTextOfJSDocComment(tag.comment) ?? '').trim();
}

/** Every value and type exported by the given entry points (paths relative to the repository root). */
export function publicExports(entries: readonly string[]): PublicExport[] {
  const program = loadProgram();
  const checker = program.getTypeChecker();
  const found: PublicExport[] = [];
  for (const entry of entries) {
    const source = program.getSourceFile(join(REPO_ROOT, entry));
    if (!source) throw new Error(`${entry} is not part of tsconfig.json's program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${entry} is not a module`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decls = symbol.declarations ?? [];
      if (decls.length === 0) continue;
      // Overloads: the tags may sit on any signature's comment.
      const tags = decls.flatMap(tagsOf);
      const group = tags.find((t) => t.tagName.text === 'group');
      found.push({
        name: exported.name,
        entry,
        file: relative(REPO_ROOT, decls[0]!.getSourceFile().fileName),
        isFunction: decls.some(isFunctionDeclaration),
        hasExample: tags.some((t) => t.tagName.text === 'example'),
        group: group ? tagText(group) : undefined,
        examples: tags.filter((t) => t.tagName.text === 'example').flatMap(exampleBlocks),
      });
    }
  }
  return found;
}

/** The ```ts blocks of an entry point's own doc comment (the one with `@module`), which TypeDoc shows on the module's page. */
export function moduleExamples(entry: string): string[] {
  const text = ts.sys.readFile(join(REPO_ROOT, entry)) ?? '';
  const comment = /\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
  if (!comment.includes('@module')) return [];
  const plain = comment.split('\n').map((l) => l.replace(/^\s*\*(?: |$)/, '')).join('\n');
  return [...plain.matchAll(/```(?:ts|typescript)\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
}
