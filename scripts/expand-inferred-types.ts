/**
 * The declarations' uses of zod a CDK app would see: `RestartInput = z.infer<typeof ...>`, the
 * type of a schedule's `input`. The package does not depend on zod (the bundles carry it), so in a
 * user's project that import resolves to nothing and, with `skipLibCheck` (which aws-cdk-lib's own
 * declarations require), silently to `any`: any input would type-check. This writes each such
 * alias out in full instead, as the compiler sees it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** An alias as tsc emits it, for a given name. */
const inferredAlias = (name: string) => new RegExp(`^export type ${name} = z\\.infer<.+>;$`, 'm');

/**
 * Rewrites, in the declarations under `typesDir`, every exported `z.infer<...>` alias of the
 * given source files into the object type it stands for.
 * @returns the aliases rewritten, as `file: name`
 */
export function expandInferredTypes(root: string, typesDir: string, sources: readonly string[]): string[] {
  const program = ts.createProgram(
    sources.map((file) => join(root, file)),
    { strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: true },
  );
  const checker = program.getTypeChecker();
  const rewritten: string[] = [];
  for (const file of sources) {
    const source = program.getSourceFile(join(root, file));
    if (source === undefined) throw new Error(`${file}: not found`);
    const declaration = join(typesDir, file.replace(/\.ts$/, '.d.ts'));
    let text = readFileSync(declaration, 'utf8');
    for (const statement of source.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      const name = statement.name.text;
      if (!inferredAlias(name).test(statement.getText(source))) continue;
      const type = checker.getTypeAtLocation(statement.name);
      const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias;
      const expanded = checker.typeToString(type, statement, flags);
      if (!inferredAlias(name).test(text)) throw new Error(`${declaration}: no z.infer alias ${name}`);
      text = text.replace(inferredAlias(name), `export type ${name} = ${expanded};`);
      rewritten.push(`${file}: ${statement.name.text}`);
    }
    writeFileSync(declaration, text);
  }
  return rewritten;
}
