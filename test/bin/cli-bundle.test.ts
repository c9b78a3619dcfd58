/**
 * Scenario: the command's bundle as `bin/private/cli-bundle.js` builds it. It must be one
 * CommonJS file that `run-bundle.cjs` can run from V8's kept code: no `import()` (a script run from
 * kept code loses Node's dynamic import hook) and no `import.meta` (empty in CommonJS, so a path
 * computed from it would be wrong), ASCII only (the runner reads it as latin1), and it must leave
 * out the Lambda SDK the local engine never calls. Every end-to-end test runs the command through this bundle.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { buildBundle, freshBundle } from '../../bin/private/cli-bundle.js';

describe('buildBundle', () => {
  let path: string;
  let source: string;
  beforeAll(async () => {
    path = (await buildBundle()) as string;
    source = readFileSync(path, 'utf8');
  });

  it('builds one CommonJS file that the next start finds fresh', () => {
    // Assert
    expect(path).toMatch(/\.nomad-restart\/cli\/build-[^/]+\/nomad-restart\.cjs$/);
    expect(freshBundle()).toBe(path);
  });

  it('goes stale when the files that say how it is built change, not only its sources', () => {
    // Arrange: the manifest freshBundle() checks, beside the build folders
    const manifest = JSON.parse(readFileSync(join(dirname(dirname(path)), 'manifest.json'), 'utf8'));

    // Assert
    expect(Object.keys(manifest.inputs)).toEqual(
      expect.arrayContaining(['bin/private/cli-bundle.js', 'lib/bundling/module-urls.js']),
    );
  });

  it('holds no import() and no import.meta', () => {
    // Assert: esbuild's glob import of the handlers names its pattern in a comment and a key
    expect(source.match(/(?<!\/\/ |['"\w.])import\(/g) ?? []).toEqual([]);
    expect(source.match(/\bimport\.meta\b|\bimport_meta\b/g) ?? []).toEqual([]);
  });

  it('is ASCII only, so the runner may read it as latin1', () => {
    // Assert
    expect(readFileSync(path).every((byte) => byte < 0x80)).toBe(true);
  });

  it('keeps only the zod it uses: no locale but English, no JSON Schema conversion', () => {
    // Assert: a dynamic import('zod') anywhere would keep all of it (~430 KB), locales too
    expect(source).not.toContain('Ongeldige invoer');
    expect(source).not.toContain('fromJSONSchema');
  });

  it('puts a stand-in where aws-local-stepfunctions imports the Lambda SDK', () => {
    // Assert
    expect(source).toContain('a Task without a local handler cannot call AWS Lambda from the local engine');
    expect(source).not.toContain('@aws-sdk/client-lambda');
  });
});
