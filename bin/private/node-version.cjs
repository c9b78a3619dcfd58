/**
 * The `engines.node` check the shim runs before anything else. Kept to syntax and APIs every Node
 * still in use parses, so an old Node prints one line naming the version needed instead of a
 * syntax error or a failure halfway through a restart. Only the `>=x.y.z` form is understood:
 * it is the one package.json uses.
 */

/** `[major, minor, patch]` of a `x.y.z` or `vx.y.z` version. */
function parts(version) {
  return String(version)
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
}

/**
 * The line to print when `version` (like `process.version`) does not satisfy `range` (`>=x.y.z`),
 * else undefined.
 */
function unsupportedNodeMessage(range, version) {
  const match = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(String(range).trim());
  if (!match) return undefined;
  const want = parts(match[1]);
  const have = parts(version);
  for (let i = 0; i < 3; i++) {
    if ((have[i] || 0) > (want[i] || 0)) return undefined;
    if ((have[i] || 0) < (want[i] || 0)) {
      return `nomad-restart needs Node.js ${match[1]} or later; this is Node.js ${String(version).replace(/^v/, '')}`;
    }
  }
  return undefined;
}

module.exports = { unsupportedNodeMessage };
