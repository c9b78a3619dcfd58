/**
 * Scenario: where the installed command keeps its cache: under XDG_CACHE_HOME when set, else
 * the platform's usual cache folder; never the package's own folder.
 */
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { userCacheDir } from '../../bin/private/user-cache.js';

describe('userCacheDir', () => {
  it.each([
    {
      name: 'XDG_CACHE_HOME',
      env: { XDG_CACHE_HOME: '/x/cache' },
      platform: 'darwin',
      expected: '/x/cache/nomad-restart',
    },
    { name: 'Linux without it', env: {}, platform: 'linux', expected: '/home/u/.cache/nomad-restart' },
    {
      name: 'an empty XDG_CACHE_HOME',
      env: { XDG_CACHE_HOME: '' },
      platform: 'linux',
      expected: '/home/u/.cache/nomad-restart',
    },
    { name: 'macOS', env: {}, platform: 'darwin', expected: '/home/u/Library/Caches/nomad-restart' },
    {
      name: 'Windows',
      env: { LOCALAPPDATA: '/w/Local' },
      platform: 'win32',
      expected: '/w/Local/nomad-restart/Cache',
    },
  ])('uses $name', ({ env, platform, expected }) => {
    expect(userCacheDir(env, platform, '/home/u')).toBe(expected);
  });
});
