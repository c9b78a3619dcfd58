/**
 * The project's own import graph, read from the sources with the TypeScript parser: every
 * relative `import`, `export ... from` and literal `import()` of the `.ts` files under the given
 * folders, resolved to files, each marked type-only or not. The architecture tests read it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** One import of one file: the imported file (project-relative) and whether it is erased at run time. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

function sourceFiles(root: string, folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(root, path));
    else if (entry.name.endsWith('.ts')) files.push(path);
  }
  return files;
}

function resolveImport(root: string, from: string, specifier: string): string | undefined {
  const base = normalize(join(dirname(from), specifier));
  // A `.js` target is one of the launcher's plain JavaScript modules (bin/private/), which the
  // TypeScript may import through its declarations.
  return [`${base}.ts`, join(base, 'index.ts'), base].find(
    (candidate) => /\.[jt]s$/.test(candidate) && existsSync(join(root, candidate)),
  );
}

/** Whether an import or export declaration brings in only types. */
function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const clause = statement.importClause;
  if (clause === undefined) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function specifiersOf(file: ts.SourceFile): Array<{ specifier: string; typeOnly: boolean }> {
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every relative import of the `.ts` files under `folders` (project-relative paths). */
export function readImportGraph(root: string, folders: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const from of folders.flatMap((folder) => sourceFiles(root, folder))) {
    const file = ts.createSourceFile(from, readFileSync(join(root, from), 'utf8'), ts.ScriptTarget.Latest);
    for (const { specifier, typeOnly } of specifiersOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const to = resolveImport(root, from, specifier);
      if (to === undefined) throw new Error(`${from}: cannot resolve ${specifier}`);
      edges.push({ from, to: relative('.', to), typeOnly });
    }
  }
  return edges;
}

/** The import cycles among the graph's files (strongly connected components of two or more files). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member !== undefined) {
        onStack.delete(member);
        component.push(member);
      }
    } while (member !== undefined && member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) connect(node);
  return cycles;
}
