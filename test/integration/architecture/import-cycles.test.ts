/**
 * No import loop in the service or the desktop core (issue 22): the floors rule in
 * eslint.config.js keeps areas from importing sideways or up, and this test closes what it does
 * not see, a loop between files of one area. Value imports only (a type-only import is erased at
 * build and cannot make a loop at run time); dynamic `import()` counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/** The modules `text` imports for their values (relative specifiers only). */
function valueImports(text: string): string[] {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      if (!allTypes) out.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause;
      const allTypes =
        node.isTypeOnly ||
        (named !== undefined &&
          ts.isNamedExports(named) &&
          named.elements.length > 0 &&
          named.elements.every((e) => e.isTypeOnly));
      if (!allTypes) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out.filter((s) => s.startsWith('.'));
}

/** The loops (strongly connected groups of more than one file, or a file importing itself). */
function loops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.includes(v)) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return found;
}

function importGraph(dir: string): Map<string, string[]> {
  const files = sourceFiles(join(root, dir));
  const known = new Set(files);
  const resolveSpec = (from: string, spec: string) => {
    const base = resolve(dirname(from), spec);
    return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => known.has(c));
  };
  return new Map(
    files.map((f) => [
      relative(root, f),
      valueImports(readFileSync(f, 'utf8'))
        .map((s) => resolveSpec(f, s))
        .filter((r): r is string => r !== undefined)
        .map((r) => relative(root, r)),
    ]),
  );
}

describe('no import loop in the service or the desktop core', () => {
  it('reads value imports and finds a loop where one is written (the check can fail)', () => {
    expect(
      valueImports(
        [
          "import { a } from './a';",
          "import type { B } from './b';",
          "import { type C } from './c';",
          "import d, { type D } from './d';",
          "export { e } from './e';",
          "export type { F } from './f';",
          "const g = await import('./g');",
          "import { h } from 'node:fs';",
        ].join('\n'),
      ),
    ).toEqual(['./a', './d', './e', './g']);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
      ['e', ['e']],
    ]);
    expect(loops(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      loops(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it.each(['src/service', 'src/main/core'])('has no value-import loop in %s', (dir) => {
    const graph = importGraph(dir);
    expect(graph.size).toBeGreaterThan(50);
    expect(loops(graph)).toEqual([]);
  });
});
