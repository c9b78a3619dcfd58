/**
 * Scenario: the shim's first act, the `engines.node` check: an older Node gets one line naming
 * the version needed and its own, a supported one nothing.
 */
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { unsupportedNodeMessage } from '../../bin/private/node-version.js';

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
});
