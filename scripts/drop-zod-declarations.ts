/**
 * The package does not depend on zod (the bundles carry it), so a declaration that still imports
 * it fails a CDK app's `tsc` without `skipLibCheck`: `Cannot find module 'zod'`. After
 * expand-inferred-types.ts has written out the types a CDK app uses, what still names zod is the
 * schemas themselves, which no other declaration imports: this removes them, then the import.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** A use of zod's namespace import (`z.ZodObject<...>`), as tsc emits it. */
const ZOD_USE = /\bz\./;
const ZOD_IMPORT = /^import (?:type )?\* as z from 'zod';\n/m;

function declarationsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The names other declarations under `typesDir` import from `target` (a `.d.ts` path). */
function namesImportedFrom(typesDir: string, target: string): Set<string> {
  const names = new Set<string>();
  for (const path of declarationsUnder(typesDir)) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      if (`${resolve(dirname(path), statement.moduleSpecifier.text)}.d.ts` !== target) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) names.add((element.propertyName ?? element.name).text);
    }
  }
  return names;
}

/** The names a top-level statement declares (`export declare const a: ...`, a type, a function). */
function declaredNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) =>
      ts.isIdentifier(d.name) ? [d.name.text] : [],
    );
  }
  if (ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement))
    return [statement.name.text];
  if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) return [statement.name.text];
  return [];
}

/** The declaration files under `typesDir` that import zod, relative to it (`lib/restart/input.d.ts`), sorted. */
export function declarationsImportingZod(typesDir: string): string[] {
  return declarationsUnder(typesDir)
    .filter((path) => readFileSync(path, 'utf8').includes("from 'zod'"))
    .map((path) => relative(typesDir, path))
    .sort();
}

/**
 * Removes, from each given declaration file, the declarations typed with zod (with their doc
 * comments), and then its zod import.
 * @param typesDir the declarations' root (`dist/types`)
 * @param files declaration files relative to `typesDir` (`lib/restart/input.d.ts`)
 * @returns the declarations removed, as `file: name`
 * @throws when another declaration imports one of them, or zod is still named afterwards
 */
export function dropZodDeclarations(typesDir: string, files: readonly string[]): string[] {
  const dropped: string[] = [];
  for (const file of files) {
    const path = join(typesDir, file);
    const text = readFileSync(path, 'utf8');
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
    const imported = namesImportedFrom(typesDir, path);
    let kept = '';
    let from = 0;
    for (const statement of source.statements) {
      if (ts.isImportDeclaration(statement) || !ZOD_USE.test(statement.getText(source))) continue;
      for (const name of declaredNames(statement)) {
        if (imported.has(name))
          throw new Error(`${file}: ${name} is typed with zod and imported by another declaration`);
        dropped.push(`${file}: ${name}`);
      }
      kept += text.slice(from, statement.getFullStart());
      from = statement.getEnd();
    }
    kept = (kept + text.slice(from)).replace(ZOD_IMPORT, '');
    if (ZOD_USE.test(kept) || kept.includes("'zod'"))
      throw new Error(`${file}: still names zod after the schemas went`);
    writeFileSync(path, kept);
  }
  const left = declarationsImportingZod(typesDir).map((file) => join(typesDir, file));
  if (left.length > 0)
    throw new Error(`declarations importing zod, which the package does not ship: ${left.join(', ')}`);
  return dropped;
}
