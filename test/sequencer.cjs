/**
 * Jest's own order (failed first, then slowest first), with two moves for the IAM inventory
 * (test/iam/operation-inventory.test.ts): the IAM-checked files (those that load
 * helpers/emulated-aws.ts) run first and the inventory last, so that in `npm test` it finds every
 * file's record of what it exercised already written, instead of running those files again in a
 * child jest (test/iam/helpers/exercised-operations.ts), which it still does when run alone.
 *
 * And one move for the wall time: a file that mostly waits in real time starts right after the
 * IAM-checked files. On a fresh clone (no recorded durations) jest orders by file size, which put
 * test/aws-limits/slow-nomad.test.ts (about 65 s of a Nomad slow on purpose, 2 s of CPU) among the
 * last files, so the run's last minute was one worker waiting on it (docs/testing.md, "CI time").
 */
const { readFileSync } = require('node:fs');
const { default: Sequencer } = require('@jest/test-sequencer');

const INVENTORY = 'test/iam/operation-inventory.test.ts';
/** Files that wait in real time for most of their run: one at a time beside the others is enough. */
const WAITING = ['test/aws-limits/slow-nomad.test.ts'];

/** 0: IAM-checked, 1: waiting in real time, 2: the rest, 3: the inventory. */
function rank(path) {
  const posix = path.replaceAll('\\', '/');
  if (posix.endsWith(INVENTORY)) return 3;
  if (readFileSync(path, 'utf8').includes('helpers/emulated-aws')) return 0;
  return WAITING.some((file) => posix.endsWith(file)) ? 1 : 2;
}

class IamInventoryLastSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const ranks = new Map(ordered.map((test) => [test.path, rank(test.path)]));
    // Array.prototype.sort is stable: within a rank, jest's order stands.
    return [...ordered].sort((a, b) => ranks.get(a.path) - ranks.get(b.path));
  }
}

module.exports = IamInventoryLastSequencer;
