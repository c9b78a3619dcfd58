/**
 * Scenario: the local engine synthesizes the project's CDK app for its definitions only. The app
 * is bundled by esbuild and run by node with the CDK's template validation off; each source keeps
 * its own `import.meta.url` (the app finds the handlers from it); a failing app is reported with
 * its own error and TypeScript line, and no bundle is left behind. A stand-in app (no CDK) writes
 * what it saw, so the test reads what the real app would be given.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SynthesisFailedError } from '../../../lib/engines/local/errors';
import { runLocalCdkApp } from '../../../lib/engines/local/local-synth';

/** A project whose `bin/app.ts` is `app`, with a module `lib/where.ts` that exports its own URL. */
async function project(app: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'local-synth-app-'));
  await mkdir(join(dir, 'bin'));
  await mkdir(join(dir, 'lib'));
  await writeFile(join(dir, 'lib', 'where.ts'), `export const where: string = ${'import.meta'}.url;\n`);
  await writeFile(join(dir, 'bin', 'app.ts'), app);
  return dir;
}

const RECORDING_APP = `import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { where } from '../lib/where';

const outDir: string = process.env['CDK_OUTDIR'] ?? '';
writeFileSync(join(outDir, 'seen.json'), JSON.stringify({
  validation: process.env['CDK_VALIDATION'],
  context: JSON.parse(process.env['CDK_CONTEXT_JSON'] ?? '{}'),
  where,
}));
`;

describe('runLocalCdkApp', () => {
  let dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    dirs = [];
  });
  const track = (dir: string) => {
    dirs.push(dir);
    return dir;
  };

  it('runs the app with validation and bundling off, each module keeping its own URL', async () => {
    // Arrange
    const dir = track(await project(RECORDING_APP));
    const outDir = track(await mkdtemp(join(tmpdir(), 'local-synth-out-')));

    // Act
    await runLocalCdkApp(dir, outDir);

    // Assert
    const seen = JSON.parse(await readFile(join(outDir, 'seen.json'), 'utf8'));
    expect(seen).toEqual({
      validation: 'false',
      context: {
        'aws:cdk:bundling-stacks': [],
        nomadAddress: 'https://nomad.local-engine.invalid:4646',
      },
      where: pathToFileURL(join(dir, 'lib', 'where.ts')).href,
    });
    expect(await readdir(join(dir, '.nomad-restart'))).toEqual([]);
  });

  it('reports an app that throws with its error and the TypeScript line, leaving no bundle', async () => {
    // Arrange
    const dir = track(await project("\n\nthrow new Error('no stack for you');\n"));
    const outDir = track(await mkdtemp(join(tmpdir(), 'local-synth-out-')));

    // Act
    const synth = runLocalCdkApp(dir, outDir);

    // Assert
    await expect(synth).rejects.toThrow(SynthesisFailedError);
    await expect(synth).rejects.toThrow(/CDK app exited with code 1: [\s\S]*no stack for you/);
    await expect(synth).rejects.toThrow(/bin\/app\.ts:3/);
    expect(await readdir(join(dir, '.nomad-restart'))).toEqual([]);
  });

  it('reports an app that does not compile as one it cannot bundle', async () => {
    // Arrange
    const dir = track(await project("import { nothing } from '../lib/missing';\nnothing();\n"));
    const outDir = track(await mkdtemp(join(tmpdir(), 'local-synth-out-')));

    // Act
    const synth = runLocalCdkApp(dir, outDir);

    // Assert
    await expect(synth).rejects.toThrow(SynthesisFailedError);
    await expect(synth).rejects.toThrow(
      /^cannot bundle the CDK app \(bin\/app\.ts\): [\s\S]*bin\/app\.ts:1:\d+: ERROR: Could not resolve "\.\.\/lib\/missing"/,
    );
  });
});
