/**
 * Scenario: a handler bundled as it is for Lambda (minified, lib/constructs/private/handler-bundle.ts)
 * still throws errors under their class names. Error classes take their `name` from the class
 * (`new.target.name`), and the state machine's Retry/Catch match on the `errorType` Lambda reports
 * for it: a minifier that renamed the classes would send every error to the wrong branch. And it
 * carries the AWS SDK the tests ran, not an import left for the runtime's own copy to answer.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { HANDLER_BUNDLE_FILE, handlerEsbuildOptions } from '../../lib/constructs/private/handler-bundle';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A handler-sized module that throws errors of several hierarchies, each class a subclass of its base. */
const ENTRY = `
import { NomadTransientError } from './lib/workflow/errors';
import { JobNotFoundError } from './lib/restart/errors';
import { NomadTimeoutError, UnexpectedResponseError } from './lib/nomad/errors';
import { VariableLockConflictError } from './lib/nomad/variables';
import { StoreItemNotFoundError } from './lib/stores/errors';
import { HandlerConfigError } from './lambdas/private/errors';
export const thrown = [
  new NomadTransientError('m'),
  new JobNotFoundError('web'),
  new NomadTimeoutError('m'),
  new StoreItemNotFoundError('m'),
  new HandlerConfigError('m'),
  new VariableLockConflictError(new UnexpectedResponseError(409, 'held')),
].map((err) => [err.name, err.constructor.name]);
`;

describe('the Lambda handler bundle', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'handler-bundle-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the error class names that Retry and Catch match on', async () => {
    // Arrange
    const outfile = join(dir, HANDLER_BUNDLE_FILE);
    await build({
      ...handlerEsbuildOptions(),
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts' },
      absWorkingDir: ROOT,
      outfile,
      logLevel: 'silent',
    });

    // Act
    const { thrown } = (await import(pathToFileURL(outfile).href)) as { thrown: [string, string][] };

    // Assert
    expect(handlerEsbuildOptions().minify).toBe(true);
    expect(thrown).toEqual(
      [
        'NomadTransientError',
        'JobNotFoundError',
        'NomadTimeoutError',
        'StoreItemNotFoundError',
        'HandlerConfigError',
        'VariableLockConflictError',
      ].map((name) => [name, name]),
    );
  });

  it('carries the AWS SDK clients at the versions package-lock.json pins, importing none at run time', async () => {
    // Arrange
    const outfile = join(dir, 'sdk', HANDLER_BUNDLE_FILE);
    const clients = ['client-sfn', 'client-dynamodb', 'client-s3', 'client-secrets-manager'];
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    const pinned = clients.map((c) => lock.packages[`node_modules/@aws-sdk/${c}`]?.version);

    // Act
    const { metafile } = await build({
      ...handlerEsbuildOptions(),
      stdin: {
        contents: clients.map((c, i) => `export * as c${i} from '@aws-sdk/${c}';`).join('\n'),
        resolveDir: ROOT,
        loader: 'ts',
      },
      absWorkingDir: ROOT,
      outfile,
      metafile: true,
      logLevel: 'silent',
    });
    const bundle = readFileSync(outfile, 'utf8');

    // Assert
    const leftOut = Object.values(metafile.outputs).flatMap((o) =>
      o.imports.filter((i) => i.external && i.path.startsWith('@aws-sdk/')).map((i) => i.path),
    );
    expect(leftOut).toEqual([]);
    // Each client names its own version in its user agent.
    for (const version of pinned) expect(bundle).toContain(`"${version}"`);
  });
});
