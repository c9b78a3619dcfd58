/**
 * Scenario: what the command's bundle evaluates before `main` runs. esbuild's CommonJS bundle runs
 * a module's top level when it is first required, and every static import is required as its
 * importer starts: the entry's static imports, and theirs, run on every start (`-help` and a flag
 * error included), while an `import()` becomes a require made when the line runs. So the modules
 * reached from `bin/nomad-restart.ts` through static imports alone are what every run pays for;
 * this holds them to what parsing, validating and printing need (docs/benchmarks.md, "Start-up").
 */
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { commandBundleOptions } from '../../bin/private/cli-bundle.js';
import { reachedByStaticImports, type StaticallyReached } from '../fixtures/static-imports';

const ENTRY = 'bin/nomad-restart.ts';

describe("the command's start", () => {
  let atStart: StaticallyReached;
  beforeAll(async () => {
    // Arrange: the bundle's own options, nothing written
    const { build } = await import('esbuild');
    const root = join(import.meta.dirname, '..', '..');
    const result = await build({
      ...commandBundleOptions({ projectDir: root, outfile: join(root, 'start-up-imports.cjs') }),
      write: false,
    });
    // Act
    atStart = reachedByStaticImports(result.metafile as Metafile, [ENTRY]);
  }, 120_000);

  it('evaluates the restart command, its flags and its help', () => {
    // Assert: the walk reaches what the first line of every run needs
    expect(atStart.modules).toContain('lib/cli/commands/run-job-restart.ts');
    expect(atStart.modules).toContain('lib/cli/commands/job-restart-help.ts');
    expect(atStart.modules).toContain('lib/restart/validate.ts');
  });

  it('evaluates no subcommand barrel, engine, terminal run nor npm package', () => {
    // Assert
    const notYet = [...atStart.modules].filter(
      (file) =>
        file === 'lib/cli/index.ts' ||
        file.startsWith('lib/engines/') ||
        file.startsWith('lambdas/') ||
        file.startsWith('sim/') ||
        file.includes('node_modules/') ||
        /^lib\/cli\/terminal\/(aws-engine|run-local|interrupt|questions|exit-code)\.ts$/.test(file) ||
        /^lib\/cli\/commands\/(demo|dry-run)\.ts$/.test(file),
    );
    expect(notYet).toEqual([]);
  });

  it('loads only the Node built-ins reading the flags needs', () => {
    // Assert: node:os (the operator's name), node:crypto, node:http and the rest come with the run
    expect([...atStart.builtins].sort()).toEqual(['node:fs', 'node:module']);
  });
});
