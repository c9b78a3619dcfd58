// Scenario: docs/fleet-output.md promises the words of every reason and the 40-job cap; a doc that
// disagrees with the code is a bug, so the rows are checked against the code that words them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FleetJobProblem } from '../../lib/fleet/events';
import { isFleetError, problemText } from '../../lib/fleet/reasons';
import { MAX_LISTED_PROBLEMS } from '../../lib/fleet/summary';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'fleet-output.md'), 'utf8');

const rows: { problem: FleetJobProblem; errors: string }[] = [
  { problem: { kind: 'sysbatch' }, errors: 'no' },
  { problem: { kind: 'stopped', status: 'dead' }, errors: 'no' },
  { problem: { kind: 'parameterized' }, errors: 'no' },
  { problem: { kind: 'periodic' }, errors: 'no' },
  { problem: { kind: 'child', parentId: 'nightly' }, errors: 'no' },
  { problem: { kind: 'nothing-in-scope' }, errors: 'no' },
  { problem: { kind: 'locked', holder: 'execution "nightly-42"' }, errors: 'yes, except in a scheduled run' },
  { problem: { kind: 'not-reached', why: 'max-failed-jobs' }, errors: 'yes' },
  { problem: { kind: 'not-reached', why: 'window-ended' }, errors: 'yes' },
  { problem: { kind: 'not-reached', why: 'stopped' }, errors: 'yes' },
  { problem: { kind: 'window-ended-midway', done: 3, of: 4 }, errors: 'yes' },
  { problem: { kind: 'canceled', message: 'stopped before it finished' }, errors: 'yes' },
];

describe('docs/fleet-output.md', () => {
  it.each(rows)(
    'words $problem.kind as the code does, and says whether it is an error',
    ({ problem, errors }) => {
      // Arrange
      const text = problemText(problem, { maxFailedJobs: 1 });
      const error = isFleetError(problem, { scheduled: false }) ? 'yes' : 'no';

      // Act
      const row = doc.split('\n').find((line) => line.includes(`| \`${text}\` |`));

      // Assert
      expect(row).toBeDefined();
      expect(row?.endsWith(`| ${errors} |`)).toBe(true);
      expect(errors.startsWith(error)).toBe(true);
    },
  );

  it('states the cap the summary keeps to', () => {
    // Assert
    expect(doc).toContain(`The block lists at most ${MAX_LISTED_PROBLEMS} jobs`);
  });
});
