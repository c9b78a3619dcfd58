/**
 * Scenario: where the installed command keeps its cache: under XDG_CACHE_HOME when set, else
 * the platform's usual cache folder; never the package's own folder.
 */
// @ts-expect-error: a plain JavaScript module of the shim, without type declarations
import { userCacheDir } from '../../bin/private/user-cache.cjs';

/** One case: the variables and platform given, and the cache folder for home `/home/u`. */
function row(name: string, env: Record<string, string>, platform: string, expected: string) {
  return { name, env, platform, expected };
}

describe('userCacheDir', () => {
  it.each([
    row('XDG_CACHE_HOME', { XDG_CACHE_HOME: '/x/cache' }, 'darwin', '/x/cache/nomad-restart'),
    row('Linux without it', {}, 'linux', '/home/u/.cache/nomad-restart'),
    row('an empty XDG_CACHE_HOME', { XDG_CACHE_HOME: '' }, 'linux', '/home/u/.cache/nomad-restart'),
    row('macOS', {}, 'darwin', '/home/u/Library/Caches/nomad-restart'),
    row('Windows', { LOCALAPPDATA: '/w/Local' }, 'win32', '/w/Local/nomad-restart/Cache'),
  ])('uses $name', ({ env, platform, expected }) => {
    expect(userCacheDir(env, platform, '/home/u')).toBe(expected);
  });
});
