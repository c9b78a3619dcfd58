/**
 * Jest's own order (failed first, then slowest first), with two moves for the IAM inventory
 * (test/iam/operation-inventory.test.ts): the IAM-checked files (those that load
 * helpers/emulated-aws.ts) run first and the inventory last, so that in `npm test` it finds every
 * file's record of what it exercised already written, instead of running those files again in a
 * child jest (test/iam/helpers/exercised-operations.ts), which it still does when run alone.
 */
const { readFileSync } = require('node:fs');
const { default: Sequencer } = require('@jest/test-sequencer');

const INVENTORY = 'test/iam/operation-inventory.test.ts';

/** 0: IAM-checked, 1: the rest, 2: the inventory. */
function rank(path) {
  if (path.replaceAll('\\', '/').endsWith(INVENTORY)) return 2;
  return readFileSync(path, 'utf8').includes('helpers/emulated-aws') ? 0 : 1;
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
