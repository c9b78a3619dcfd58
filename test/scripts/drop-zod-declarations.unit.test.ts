/**
 * Scenario: the package's declarations name no zod (which the package does not ship): the schemas
 * go, the types written out from them stay, and a schema another declaration imports stops the
 * build instead of leaving a user's `tsc` with `Cannot find module 'zod'`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declarationsImportingZod, dropZodDeclarations } from '../../scripts/drop-zod-declarations';

const INPUT = `/** About the input. */
import * as z from 'zod';
import { type RestartOptions } from './options';
/** The schema. */
export declare const restartInputSchema: z.ZodObject<{
    job: z.ZodString;
}, z.core.$strict>;
/** The raw input type. */
export type RestartInput = { job: string; };
export declare function toRestartInput(options: RestartOptions): RestartInput;
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'drop-zod-'));
  mkdirSync(join(dir, 'lib', 'restart'), { recursive: true });
  mkdirSync(join(dir, 'lib', 'constructs'), { recursive: true });
  writeFileSync(join(dir, 'lib', 'restart', 'input.d.ts'), INPUT);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const importer = (names: string) =>
  writeFileSync(
    join(dir, 'lib', 'constructs', 'schedule.d.ts'),
    `import type { ${names} } from '../restart/input';\n`,
  );

describe('dropZodDeclarations', () => {
  it('removes the schemas and the zod import, and keeps the types written out', () => {
    // Arrange
    importer('RestartInput');

    // Act
    const dropped = dropZodDeclarations(dir, ['lib/restart/input.d.ts']);

    // Assert
    const text = readFileSync(join(dir, 'lib', 'restart', 'input.d.ts'), 'utf8');
    expect(dropped).toEqual(['lib/restart/input.d.ts: restartInputSchema']);
    expect(text).not.toMatch(/zod|z\.|The schema/);
    expect(text).toContain('export type RestartInput = { job: string; };');
    expect(text).toContain('export declare function toRestartInput(');
  });

  it('refuses a schema another declaration imports, naming it', () => {
    // Arrange
    importer('RestartInput, restartInputSchema');

    // Act
    const act = () => dropZodDeclarations(dir, ['lib/restart/input.d.ts']);

    // Assert
    expect(act).toThrow(
      'lib/restart/input.d.ts: restartInputSchema is typed with zod and imported by another declaration',
    );
  });

  it('refuses declarations elsewhere that still import zod', () => {
    // Arrange
    writeFileSync(
      join(dir, 'lib', 'constructs', 'other.d.ts'),
      "import * as z from 'zod';\nexport declare const s: z.ZodString;\n",
    );

    // Act
    const act = () => dropZodDeclarations(dir, ['lib/restart/input.d.ts']);

    // Assert
    expect(act).toThrow(/declarations importing zod, which the package does not ship: .*other\.d\.ts/);
  });

  it('finds every declaration importing zod, a type-only import too, and drops them all', () => {
    // Arrange: a second schema module, as a new input module would add one.
    writeFileSync(
      join(dir, 'lib', 'constructs', 'other.d.ts'),
      'import type * as z from \'zod\';\nexport declare function check(issue: z.core.$ZodIssue): void;\nexport declare const name = "other";\n',
    );

    // Act
    const found = declarationsImportingZod(dir);
    const dropped = dropZodDeclarations(dir, found);

    // Assert
    expect(found).toEqual(['lib/constructs/other.d.ts', 'lib/restart/input.d.ts']);
    expect(dropped).toEqual([
      'lib/constructs/other.d.ts: check',
      'lib/restart/input.d.ts: restartInputSchema',
    ]);
    expect(readFileSync(join(dir, 'lib', 'constructs', 'other.d.ts'), 'utf8')).toBe(
      'export declare const name = "other";\n',
    );
  });
});
