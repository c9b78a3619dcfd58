// Scenario: `nomad-restart fleet -batch-wait ask -max-jobs 2` in a pseudo-terminal against the
// simulator with ACLs: two jobs restart at once and each asks between its batches; the questions
// come one at a time, each naming its job, every one is answered "y", and both jobs finish.
import type { Harness } from '../steps/helpers/harness';
import { fleetEnv, openFleet, restartedJobs, teamJob } from './helpers/fleet-fixture';
import { runInPty } from './helpers/run-pty';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('nomad-restart fleet at a terminal', () => {
  it('asks each job’s questions one at a time, naming the job', async () => {
    // Arrange
    h = await openFleet({
      namespaces: ['payments'],
      jobs: [teamJob('a', 'payments', 'payments', 2), teamJob('b', 'payments', 'payments', 2)],
    });

    // Act
    const result = await runInPty(
      ['fleet', '-namespace', 'payments', '-max-jobs', '2', '-batch-wait', 'ask', '-on-error', 'fail'],
      fleetEnv(h),
      ['y', 'y'],
    );

    // Assert
    expect(result.code).toBe(0);
    const questions = result.output
      .split('\n')
      .filter((line) => line.includes('Proceed with the next batch?'));
    expect(questions).toHaveLength(2);
    expect(questions.map((q) => /\[payments\/(a|b)\]/.exec(q)?.[1]).sort()).toEqual(['a', 'b']);
    expect(result.output).toMatch(/^Fleet restart finished: 2 jobs restarted, 0 failed, 0 skipped$/m);
    expect(restartedJobs(h)).toEqual(['payments/a', 'payments/b']);
  });
});
