/**
 * Scenario: the shim's first act, the `engines.node` check: an older Node gets one line naming
 * the version needed and its own, a supported one nothing.
 */
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { unsupportedNodeMessage } from '../../bin/private/node-version.cjs';

/** The range the shim reads: package.json's own `engines.node`. */
const SHIPPED_RANGE = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;

describe('unsupportedNodeMessage', () => {
  it.each([
    { name: 'the minimum itself', range: '>=20.18.1', version: 'v20.18.1' },
    { name: 'a later patch', range: '>=20.18.1', version: 'v20.18.2' },
    { name: 'a later minor', range: '>=20.18.1', version: 'v20.19.0' },
    { name: 'a later major with lower minor', range: '>=20.18.1', version: 'v22.1.0' },
    { name: 'a range that is not >=x.y.z (not ours to judge)', range: '^18 || ^20', version: 'v16.0.0' },
  ])('accepts $name', ({ range, version }) => {
    expect(unsupportedNodeMessage(range, version)).toBeUndefined();
  });

  it.each([
    { name: 'an older major', version: 'v18.20.4' },
    { name: 'an older minor', version: 'v20.17.0' },
    { name: 'an older patch', version: 'v20.18.0' },
  ])('names the version needed on $name', ({ version }) => {
    expect(unsupportedNodeMessage('>=20.18.1', version)).toBe(
      `nomad-restart needs Node.js 20.18.1 or later; this is Node.js ${version.slice(1)}`,
    );
  });

  it.each([
    { name: 'the oldest Node 22', version: 'v22.0.0' },
    { name: 'Node 24', version: 'v24.22.3' },
  ])("accepts $name under the package's own range", ({ version }) => {
    expect(unsupportedNodeMessage(SHIPPED_RANGE, version)).toBeUndefined();
  });

  it.each([
    { name: 'the last Node 20 (end of life on 2026-04-30)', version: 'v20.20.2' },
    { name: 'Node 21', version: 'v21.7.3' },
  ])("refuses $name under the package's own range, in one line", ({ version }) => {
    expect(unsupportedNodeMessage(SHIPPED_RANGE, version)).toBe(
      `nomad-restart needs Node.js 22.0.0 or later; this is Node.js ${version.slice(1)}`,
    );
  });
});
