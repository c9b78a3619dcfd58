/**
 * Scenario: what a restart run of the installed package evaluates once it reaches the engine. In
 * the command's CommonJS bundle every static import is required as its importer starts, so the
 * Node built-ins reached from the engine and the restart's handlers through static imports alone
 * are loaded by every restart; the ones only a checkout's synth or a Lambda's TLS secret needs
 * (spawning processes, writing files) are imported where they are used (docs/benchmarks.md,
 * "Start-up").
 */
import { join } from 'node:path';
import { TASK_STATE_HANDLERS } from '../../../lib/workflow/state-names';
import { reachedByStaticImports } from '../../fixtures/static-imports';

const ENGINE = 'lib/engines/local/engine.ts';

describe("the local engine's imports", () => {
  let reached: Set<string>;
  beforeAll(async () => {
    // Arrange: the engine and every handler a one-job run binds, bundled as the command is
    const { build } = await import('esbuild');
    const root = join(import.meta.dirname, '..', '..', '..');
    const handlers = [...new Set(Object.values(TASK_STATE_HANDLERS))].map((id) => `lambdas/${id}.ts`);
    const entries = [ENGINE, ...handlers];
    const result = await build({
      absWorkingDir: root,
      entryPoints: entries,
      bundle: true,
      platform: 'node',
      format: 'esm',
      outdir: join(root, 'engine-imports-out'),
      packages: 'external',
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    // Act
    reached = reachedByStaticImports(result.metafile, entries).builtins;
  }, 120_000);

  it('reaches the built-ins every run uses', () => {
    // Assert: the walk follows the handlers' imports as far as the Nomad client
    expect(reached).toContain('node:crypto');
    expect(reached).toContain('node:http');
  });

  it('loads no process spawning nor promise file API, which only the synth and a TLS secret use', () => {
    // Assert
    const unused = ['node:child_process', 'node:fs/promises'].filter((builtin) => reached.has(builtin));
    expect(unused).toEqual([]);
  });
});
