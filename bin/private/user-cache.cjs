/**
 * The user's cache folder for the installed command: `$XDG_CACHE_HOME/nomad-restart`, else the
 * platform's usual place (`~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on
 * Windows). An installed package never writes into its own folder: it may be read-only (a global
 * install by root), and is shared by every user of the machine.
 */
const { homedir } = require('node:os');
const { join } = require('node:path');

/** Where the installed command keeps what it caches (V8's compiled code, see run-bundle.cjs). */
function userCacheDir(env = process.env, platform = process.platform, home = homedir()) {
  if (env['XDG_CACHE_HOME']) return join(env['XDG_CACHE_HOME'], 'nomad-restart');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'nomad-restart');
  if (platform === 'win32' && env['LOCALAPPDATA']) return join(env['LOCALAPPDATA'], 'nomad-restart', 'Cache');
  return join(home, '.cache', 'nomad-restart');
}

module.exports = { userCacheDir };
