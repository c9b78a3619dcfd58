/**
 * Scenario (issue #38, must show): the freshness report through the real command, against the
 * simulator with ACLs on and the README's policy token. A service job "web" of three running
 * allocations whose task may not restart after a failure (restart policy: no attempts, mode fail);
 * the command restarts it with `-yes -started-before T`, T after every first start.
 * - One allocation's task crashes as it starts again: Nomad accepted every restart (no error, Nomad's
 *   "Job restarted successfully!"), yet the report, from the allocations re-read after the last
 *   batch, names that allocation still stale, never says every allocation is fresh, and the
 *   command exits 1.
 * - Nothing crashes, `-output json`: the `freshness` event reports all three restarted and nothing
 *   stale, exit 0.
 * - The same crash in a fleet (`fleet -namespace default -started-before T`): the job whose run
 *   left an allocation stale is counted failed with the count, the fleet ends with errors, exit 1.
 *
 * The simulator runs on the wall clock (time scale 1): T is a wall-clock time the command must
 * accept (a future time is refused), and the tasks' `StartedAt` must be on the same clock.
 */
import type { ProgressEvent } from '../../lib/restart/events';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { simpleJob } from '../steps/helpers/harness';
import { runCli } from './helpers/run-cli';

const JOB = 'web';

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The simulator on the wall clock once `web` runs, then a few ms so a time taken now is after every start. */
async function startRunning(): Promise<RunningSimulator> {
  const job = simpleJob(JOB, 'service', 3);
  const [group] = job.TaskGroups ?? [];
  if (group !== undefined) group.RestartPolicy = { Attempts: 0, Interval: 1800e9, Delay: 1e9, Mode: 'fail' };
  sim = await startSimulator({
    clock: createScaledClock(1),
    scenario: { nodes: [{ name: 'n1' }], jobs: [job], acl: readmePolicyAcl(['default']) },
  });
  await sim.control.waitFor(
    (state) => state.allocations({ jobId: JOB }).filter((a) => a.ClientStatus === 'running').length === 3,
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  return sim;
}

describe('nomad-restart -started-before: the freshness report', () => {
  it('names an allocation whose restarted task crashed as still stale and exits 1', async () => {
    // Arrange
    const s = await startRunning();
    const [crashing] = s.control.state().allocations({ jobId: JOB });
    const id = crashing?.ID ?? '';
    s.control.crashOnStart({ allocationId: id }, { exitCode: 3 });
    const T = new Date().toISOString();

    // Act
    const result = await runCli(['-yes', '-started-before', T, JOB], {
      NOMAD_ADDR: s.address,
      NOMAD_TOKEN: OPERATOR_TOKEN,
    });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    const report = lines.findIndex((line) => line.includes('Freshness:'));
    expect(lines.slice(report - 2, report + 2)).toEqual([
      '',
      'Job restarted successfully!',
      '==> <ts>: Freshness: 3 allocations checked, 2 restarted, 0 already fresh, 1 still stale',
      `    <ts>: Allocation "${id.slice(0, 8)}" started before the time given: its restart failed`,
    ]);
    expect(result.stdout).not.toContain('Every allocation in scope started after');
    // Nothing refused; an absent run-control request is Nomad's 404 for its variable, read before each batch.
    // Absent variables read as 404: no run-control request, no history yet (its first record).
    const absentRequest = (e: { status: number; path: string }) =>
      e.status === 404 &&
      (e.path.startsWith('/v1/var/nomad-restart/requests/') ||
        e.path.startsWith('/v1/var/nomad-restart/history/'));
    expect(s.control.requestLog().filter((e) => e.status >= 400 && !absentRequest(e))).toEqual([]);
  });

  it('prints the freshness event with -output json, nothing stale, exit 0', async () => {
    // Arrange
    const s = await startRunning();
    const T = new Date().toISOString();

    // Act
    const result = await runCli(['-yes', '-output', 'json', '-started-before', T, JOB], {
      NOMAD_ADDR: s.address,
      NOMAD_TOKEN: OPERATOR_TOKEN,
    });

    // Assert
    expect(result.code).toBe(0);
    const events = result.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as ProgressEvent);
    const freshness = events.filter((e) => e.type === 'freshness');
    expect(freshness).toEqual([
      {
        type: 'freshness',
        time: expect.any(Number),
        report: {
          namespace: 'default',
          jobId: JOB,
          startedBefore: Date.parse(T),
          checked: 3,
          restarted: 3,
          alreadyFresh: 0,
          stale: [],
        },
        // The run's context every one-job JSON event carries: after the last of 3 batches of one.
        job: JOB,
        namespace: 'default',
        batch: 3,
        batches: 3,
        totals: { restarted: 3, failed: 0 },
      },
    ]);
    // Nomad's last line's event, then the run's end (no line in text).
    expect(events.slice(-2).map((e) => e.type)).toEqual(['freshness', 'run-ended']);
  });

  it('counts a fleet job whose run left an allocation stale as failed, and the fleet ends with errors', async () => {
    // Arrange
    const s = await startRunning();
    const [crashing] = s.control.state().allocations({ jobId: JOB });
    s.control.crashOnStart({ allocationId: crashing?.ID ?? '' }, { exitCode: 3 });
    const T = new Date().toISOString();

    // Act
    const result = await runCli(['fleet', '-namespace', 'default', '-yes', '-started-before', T], {
      NOMAD_ADDR: s.address,
      NOMAD_TOKEN: OPERATOR_TOKEN,
    });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^Fleet restart finished with errors: 0 jobs restarted, 1 failed, 0 skipped$/m,
    );
    expect(result.stdout).toContain(`  default/${JOB}: failed: 1 allocations still started before ${T}`);
  });
});
