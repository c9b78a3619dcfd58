/**
 * `node compare-templates.mjs <reference dir> <dir>...`: each cloud assembly's
 * NomadRestart.template.json must equal the reference one, except for the Lambda code's asset
 * hashes (`<sha256>.zip`), which are reported, not compared: the repository bundles its handlers
 * at synth time and the package ships them prebundled, so the files hashed differ (see README,
 * "Install"). Exits 1 with the first differing paths.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const ASSET_ZIP = /^[0-9a-f]{64}\.zip$/;

/** The template with every asset hash replaced, and the hashes it had. */
function normalized(dir) {
  const hashes = [];
  const template = JSON.parse(
    readFileSync(join(dir, 'NomadRestart.template.json'), 'utf8'),
    (_key, value) => {
      if (typeof value !== 'string' || !ASSET_ZIP.test(value)) return value;
      hashes.push(value);
      return '<asset>.zip';
    },
  );
  return { template, hashes };
}

/** Paths (a.b.c) where the two values differ, at most `limit`. */
function differences(a, b, path = '', found = [], limit = 20) {
  if (found.length >= limit || isDeepStrictEqual(a, b)) return found;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    found.push(`${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(b)?.slice(0, 200)}`);
    return found;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    differences(a[key], b[key], path === '' ? key : `${path}.${key}`, found, limit);
  }
  return found;
}

const [reference, ...others] = process.argv.slice(2);
const expected = normalized(reference);
let failed = false;
for (const dir of others) {
  const actual = normalized(dir);
  const diff = differences(expected.template, actual.template);
  const sameHashes = isDeepStrictEqual(expected.hashes, actual.hashes);
  const resources = Object.keys(actual.template.Resources ?? {}).length;
  if (diff.length > 0) {
    failed = true;
    process.stdout.write(`${dir}: differs from ${reference}:\n  ${diff.join('\n  ')}\n`);
  } else {
    process.stdout.write(
      `${dir}: same template as ${reference} (${resources} resources); ${actual.hashes.length} asset hashes ${sameHashes ? 'equal too' : 'differ'}\n`,
    );
  }
}
process.exitCode = failed ? 1 : 0;
