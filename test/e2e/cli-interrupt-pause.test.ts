/**
 * Scenario (issue #39, "a terminal following a run: a Ctrl-C menu"): the real command, at a
 * pseudo-terminal, against the simulator with ACLs on and the README policy's token, restarts a
 * job of three allocations one per batch with a 2 s batch wait. Ctrl-C during the first wait asks
 * Nomad's interrupt question word for word; `p` records a pause for the run, which goes on to its
 * next safe point and pauses there: the paused line names this terminal's `user@host`, and the
 * pause question follows. No restart reaches Nomad (its request log) between the `p` and the `y`
 * that resumes it; then the two other batches run and the run succeeds.
 */
import { operatorName } from '../../lib/cli/terminal/operator';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { simpleJob } from '../steps/helpers/harness';
import { runInterruptedAnswering } from './helpers/run-pty';

const RESTART = /^\/v1\/client\/allocation\/[0-9a-f-]{36}\/restart$/;
const INDENT = ' '.repeat(31);

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('nomad-restart Ctrl-C at a terminal', () => {
  it('pauses the run before its next batch on p, in Nomad’s words, and resumes it on y', async () => {
    // Arrange: the simulator on the wall's clock, so its request log and the replies compare.
    sim = await startSimulator({
      clock: createScaledClock(1),
      scenario: {
        nodes: [{ name: 'n1' }],
        jobs: [simpleJob('web', 'service', 3)],
        acl: readmePolicyAcl(['default']),
      },
    });
    await sim.control.waitFor(
      (state) => state.allocations({ jobId: 'web' }).filter((a) => a.ClientStatus === 'running').length === 3,
    );
    const env = { NOMAD_ADDR: sim.address, NOMAD_TOKEN: OPERATOR_TOKEN };
    const repliedAt: Record<string, number> = {};

    // Act
    const { code, output } = await runInterruptedAnswering(
      ['-yes', '-batch-size', '1', '-batch-wait', '2s', 'web'],
      env,
      'Waiting 2s before restarting the next batch',
      ['p', 'y'],
      (reply) => {
        repliedAt[reply] = Date.now();
      },
    );

    // Assert
    expect(code).toBe(0);
    const me = operatorName();
    expect(output).toContain(
      [
        '==> <ts>: Waiting 2s before restarting the next batch',
        '==> <ts>: Restart interrupted, no more allocations will be restarted.',
        `${INDENT}Are you sure you want to stop the restart process? [y/N] p`,
        'Pause requested: the restart pauses before its next batch',
        `==> <ts>: Restart paused by ${me} (terminal): no batch starts until it is resumed`,
        `==> <ts>: Paused by ${me} (terminal) at <ts>.`,
        `${INDENT}Resume the restart? [y/N] y`,
      ].join('\n'),
    );
    expect(output).toContain('Job restarted successfully!');
    const restarts = sim.control
      .requestLog()
      .filter((e) => e.method === 'PUT' && RESTART.test(e.path))
      .map((e) => e.time);
    const pausedAt = repliedAt['p'] ?? Number.NaN;
    const resumedAt = repliedAt['y'] ?? Number.NaN;
    expect(restarts).toHaveLength(3);
    expect(restarts.filter((t) => t < pausedAt)).toHaveLength(1);
    expect(restarts.filter((t) => t >= pausedAt && t < resumedAt)).toEqual([]);
    expect(restarts.filter((t) => t >= resumedAt)).toHaveLength(2);
  }, 90_000);
});
