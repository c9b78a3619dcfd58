import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import {
  ensureSynthesized,
  isTemplateFresh,
  runCdkSynth,
  SynthesisFailedError,
} from '../../../lib/engines/local';

const HOUR = 3600;

/** A project with sources at t=1000 s and, when asked, a template at `templateTime`. */
async function project(templateTime?: number): Promise<{ dir: string; templatePath: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'local-synth-'));
  const files = ['lib/workflow/graph.ts', 'lambdas/plan.ts', 'bin/app.ts', 'node_modules/x/index.js'];
  for (const file of files) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), '// source');
    await utimes(join(dir, file), 1000, 1000);
  }
  const templatePath = join(dir, 'cdk.out', 'Stack.template.json');
  if (templateTime !== undefined) {
    await mkdir(join(dir, 'cdk.out'));
    await writeFile(templatePath, JSON.stringify({ Resources: { cached: {} } }));
    await utimes(templatePath, templateTime, templateTime);
  }
  return { dir, templatePath };
}

describe('isTemplateFresh', () => {
  it.each([
    { name: 'there is no template', templateTime: undefined, touch: undefined, expected: false },
    {
      name: 'the template is newer than every source',
      templateTime: 1000 + HOUR,
      touch: undefined,
      expected: true,
    },
    {
      name: 'a nested source changed after it',
      templateTime: 1000 + HOUR,
      touch: 'lib/workflow/graph.ts',
      expected: false,
    },
    { name: 'bin/app.ts changed after it', templateTime: 1000 + HOUR, touch: 'bin/app.ts', expected: false },
    {
      name: 'only node_modules changed',
      templateTime: 1000 + HOUR,
      touch: 'node_modules/x/index.js',
      expected: true,
    },
  ])('says $expected when $name', async ({ templateTime, touch, expected }) => {
    // Arrange
    const { dir, templatePath } = await project(templateTime);
    if (touch !== undefined) await utimes(join(dir, touch), 1000 + 2 * HOUR, 1000 + 2 * HOUR);

    // Act
    const fresh = await isTemplateFresh(templatePath, dir);

    // Assert
    expect(fresh).toBe(expected);
  });
});

describe('ensureSynthesized', () => {
  it('reuses a fresh cached template without synthesizing', async () => {
    // Arrange
    const { dir, templatePath } = await project(1000 + HOUR);
    const synthesize = jest.fn(async () => undefined);

    // Act
    const result = await ensureSynthesized({ projectDir: dir, stackName: 'Stack', synthesize });

    // Assert
    expect(synthesize).not.toHaveBeenCalled();
    expect(result).toEqual({ template: { Resources: { cached: {} } }, templatePath, synthesized: false });
  });

  it('synthesizes when the template is stale and reads the new one', async () => {
    // Arrange
    const { dir, templatePath } = await project(1000 + HOUR);
    await utimes(join(dir, 'lambdas/plan.ts'), 1000 + 2 * HOUR, 1000 + 2 * HOUR);
    const synthesize = jest.fn(async (_projectDir: string, cdkOutDir: string) => {
      await writeFile(join(cdkOutDir, 'Stack.template.json'), JSON.stringify({ Resources: { fresh: {} } }));
    });

    // Act
    const result = await ensureSynthesized({ projectDir: dir, stackName: 'Stack', synthesize });

    // Assert
    expect(synthesize).toHaveBeenCalledWith(dir, join(dir, 'cdk.out'));
    expect(result).toEqual({ template: { Resources: { fresh: {} } }, templatePath, synthesized: true });
  });
});

describe('runCdkSynth', () => {
  it('fails with the end of stderr when cdk cannot run', async () => {
    // Arrange
    const { dir } = await project();

    // Act
    const synth = runCdkSynth(dir, join(dir, 'cdk.out'));

    // Assert
    await expect(synth).rejects.toThrow(SynthesisFailedError);
    await expect(runCdkSynth(dir, join(dir, 'cdk.out'))).rejects.toThrow(
      /^cdk synth exited with code 1: .*Cannot find module/s,
    );
  });
});
