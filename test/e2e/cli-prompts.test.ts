// Scenario: acceptance scenario 1, at a real terminal (node-pty): `-batch-wait ask`
// with 5 allocations and `-batch-size 2`. The command asks Nomad's proceed question between
// batches; `xyz` is refused and asked again, `y` goes on, `1s` sets the wait and stops the
// questions, `n` cancels with exit 0. Answers go through the workflow's task-token step.
// Runs against the simulator or the agent at NOMAD_E2E_ADDR; the restarted allocations are
// read back through the API. Scenario 3's multi-region job needs Nomad Enterprise.

import { simpleJob } from '../steps/helpers/harness';
import { notOnAgent, restartedCount, runningE2ePerTest } from './helpers/e2e-target';
import { runInPty } from './helpers/run-pty';

const QUESTION = '==> <ts>: Proceed with the next batch? [Y/n/<wait duration>] ';

describe('nomad-restart at a terminal', () => {
  const h = runningE2ePerTest(simpleJob('example', 'service', 5));

  it('refuses an invalid answer, goes on with y, then waits as answered (scenario 1)', async () => {
    // Act
    const { code, output } = await runInPty(['-batch-size', '2', '-batch-wait', 'ask', 'example'], h.env, [
      'xyz',
      'y',
      '1s',
    ]);

    // Assert
    expect(code).toBe(0);
    const lines = output.split('\n');
    expect(lines).toContain(`${QUESTION}xyz`);
    expect(lines).toContain(`${' '.repeat(31)}Invalid answer "xyz"`);
    expect(lines).toContain(`${QUESTION}y`);
    expect(lines).toContain(`${QUESTION}1s`);
    expect(lines).toContain('==> <ts>: Proceeding restarts with new wait time of 1s');
    expect(lines).toContain('==> <ts>: Waiting 1s before restarting the next batch');
    expect(lines).toContain('==> <ts>: Restarting 3rd batch of 1 allocations');
    expect(output).toContain('Job restarted successfully!');
    expect(await restartedCount(h, 'example', 5)).toBe(5);
    if (h.sim) expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(5);
  });

  it('cancels on n with exit 0 and no success line (scenario 1)', async () => {
    // Act
    const { code, output } = await runInPty(['-batch-size', '2', '-batch-wait', 'ask', 'example'], h.env, [
      'n',
    ]);

    // Assert
    expect(code).toBe(0);
    expect(output).toContain(`${QUESTION}n`);
    expect(output).toContain('==> <ts>: Job restart canceled');
    expect(output).not.toContain('Job restarted successfully!');
    expect(await restartedCount(h, 'example', 2)).toBe(2);
    if (h.sim) expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(2);
  });

  const MR = 'a multi-region job (scenario 3)';
  if (!notOnAgent(MR, 'needs Nomad Enterprise (CE refuses: "Multiregion jobs are unlicensed.")'))
    describe(MR, () => {
      const MR_QUESTION =
        '==> <ts>: Are you sure you want to restart multi-region job "global-web" in a single region? [y/N] ';
      beforeEach(async () => {
        const job = {
          ...simpleJob('global-web', 'service', 2),
          Multiregion: { Regions: [{ Name: 'east' }, { Name: 'west' }] },
        };
        await h.register(job);
        await h.waitRunning('global-web', 2);
      });

      it('cancels on n before printing anything of the plan, with exit 0', async () => {
        // Act
        const { code, output } = await runInPty(['-batch-size', '2', 'global-web'], h.env, ['n']);

        // Assert
        expect(code).toBe(0);
        expect(output.startsWith(`${MR_QUESTION}n\n\nJob restart canceled.\n`)).toBe(true);
        expect(output).not.toContain('Restarting 2 allocations');
        expect(h.sim?.control.counters()['PUT /v1/client/allocation/:id/restart'] ?? 0).toBe(0);
      });

      it('restarts on y, the plan lines following the answer', async () => {
        // Act
        const { code, output } = await runInPty(['-batch-size', '2', 'global-web'], h.env, ['y']);

        // Assert
        expect(code).toBe(0);
        expect(output.startsWith(`${MR_QUESTION}y\n==> <ts>: Restarting 2 allocations\n`)).toBe(true);
        expect(output).toContain('Job restarted successfully!');
        expect(h.sim?.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(2);
      });
    });
});
