/**
 * Scenario (issue #38, must show): `-started-before` makes a restart resumable. The real command,
 * against the simulator with ACLs on and the README's policy token, restarts a job of three
 * allocations one per batch with `-started-before T` (T after every first start); SIGINT after
 * the first batch, answered `y`, stops it there. The same command run again with the same T skips
 * the allocation the first run restarted (`started after T`, with -verbose) and restarts only the
 * two it had not reached; a third run restarts nothing and says `All 3 allocations started after
 * <T>`, exit 0. Every claim is read from the simulator's request log: which allocations got
 * `PUT /v1/client/allocation/:id/restart`, in which run, and that no request was refused.
 * Also: a dry run names the fresh allocation `started after <T>` and writes nothing; when all
 * are fresh a dry run prints `All 3 allocations started after <T>`, and `-output json` the one
 * `all-started-after` event, exit 0.
 *
 * The simulator runs on the wall clock here (time scale 1): T is a wall-clock time the command
 * must accept (a future time is refused), and the tasks' `StartedAt` must be on the same clock.
 */
import {
  createScaledClock,
  type RequestLogEntry,
  type RunningSimulator,
  startSimulator,
} from '../../sim/index';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { clientFor, simpleJob } from '../steps/helpers/harness';
import { runCli } from './helpers/run-cli';
import { runInterrupted } from './helpers/run-pty';

const JOB = 'web';
const RESTART_PATH = /^\/v1\/client\/allocation\/([0-9a-f-]{36})\/restart$/;

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/**
 * The simulator on the wall's clock (time scale 1), with ACLs and the README policy's token, once
 * the job's three allocations run; then a few milliseconds, so a time taken now is after their starts.
 */
async function startRunning(): Promise<RunningSimulator> {
  sim = await startSimulator({
    clock: createScaledClock(1),
    scenario: {
      nodes: [{ name: 'n1' }],
      jobs: [simpleJob(JOB, 'service', 3)],
      acl: readmePolicyAcl(['default']),
    },
  });
  await sim.control.waitFor(
    (state) => state.allocations({ jobId: JOB }).filter((a) => a.ClientStatus === 'running').length === 3,
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  return sim;
}

/** The allocations `entries` restarted in place, in request order. */
const restartedIn = (entries: readonly RequestLogEntry[]) =>
  entries.filter((e) => e.method === 'PUT').flatMap((e) => RESTART_PATH.exec(e.path)?.[1] ?? []);

describe('nomad-restart -started-before', () => {
  it('resumed after a SIGINT with the same time, restarts only the two batches the first run had not reached', async () => {
    // Arrange: three running allocations, then T just after their first starts.
    const s = await startRunning();
    const T = new Date(Date.now()).toISOString();
    const env = { NOMAD_ADDR: s.address, NOMAD_TOKEN: OPERATOR_TOKEN };
    const args = ['-yes', '-batch-size', '1', '-started-before', T];
    const allocations = s.control
      .state()
      .allocations({ jobId: JOB })
      .map((a) => a.ID)
      .sort();

    // Act: interrupted after the first batch; then the same command, twice.
    const first = await runInterrupted(
      [...args, '-batch-wait', '2s', JOB],
      env,
      'Waiting 2s before restarting the next batch',
      'y',
    );
    const afterFirst = s.control.requestLog().length;
    const second = await runCli([...args, '-verbose', JOB], env);
    const afterSecond = s.control.requestLog().length;
    const third = await runCli([...args, JOB], env);
    const log = s.control.requestLog();

    // Assert: the first run restarted one allocation and stopped.
    expect(first.code).toBe(0);
    expect(first.output).toContain('==> <ts>: Restarting 3 allocations');
    expect(first.output.endsWith('\nCanceling job restart process\n')).toBe(true);
    const byFirst = restartedIn(log.slice(0, afterFirst));
    expect(byFirst).toHaveLength(1);
    const [done] = byFirst;

    // Assert: the second run skipped it as fresh and restarted exactly the other two.
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain(`Skipping allocation "${done}" because it started after <ts>`);
    expect(second.stdout).toContain('==> <ts>: Restarting 2 allocations');
    expect(second.stdout).toContain('Job restarted successfully!');
    const bySecond = restartedIn(log.slice(afterFirst, afterSecond));
    expect([...bySecond].sort()).toEqual(allocations.filter((id) => id !== done));

    // Assert: the third run restarted nothing and said why.
    expect(third).toEqual({ code: 0, stdout: 'All 3 allocations started after <ts>\n', stderr: '' });
    expect(restartedIn(log.slice(afterSecond))).toEqual([]);

    // Assert: every request carried the README policy's token and none was refused.
    expect(log.filter((e) => e.status === 401 || e.status === 403)).toEqual([]);
  });

  it('names the fresh allocation in a dry run, and says when all are fresh in a dry run and in JSON', async () => {
    // Arrange: one allocation restarted by hand after T.
    const s = await startRunning();
    const T = Date.now();
    const [fresh] = s.control.state().allocations({ jobId: JOB });
    const id = fresh?.ID ?? '';
    const admin = clientFor(s, MANAGEMENT_TOKEN);
    await admin.allocations().restart(id, {});
    await admin.close();
    await s.control.waitFor((state) =>
      state.allocations({ jobId: JOB }).some((a) => {
        const startedAt = a.ID === id ? a.TaskStates?.['task1']?.StartedAt : undefined;
        return typeof startedAt === 'string' && Date.parse(startedAt) > T;
      }),
    );
    const env = { NOMAD_ADDR: s.address, NOMAD_TOKEN: OPERATOR_TOKEN };
    const writesBefore = s.control.requestLog().filter((e) => e.method !== 'GET').length;

    // Act
    const dry = await runCli(['-dry-run', '-started-before', new Date(T).toISOString(), JOB], env);
    const writesAfterDryRun = s.control.requestLog().filter((e) => e.method !== 'GET').length;
    const json = await runCli(
      ['-yes', '-output', 'json', '-started-before', '2020-01-01T00:00:00Z', JOB],
      env,
    );
    const dryAllFresh = await runCli(['-dry-run', '-started-before', '2020-01-01T00:00:00Z', JOB], env);

    // Assert
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('==> <ts>: Skipping 1 allocation');
    expect(dry.stdout).toContain(`Skipping allocation "${id.slice(0, 8)}" because it started after <ts>`);
    expect(writesAfterDryRun).toBe(writesBefore);
    expect(dryAllFresh).toEqual({ code: 0, stdout: 'All 3 allocations started after <ts>\n', stderr: '' });
    expect(json.code).toBe(0);
    const events = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events).toEqual([
      {
        type: 'all-started-after',
        time: expect.any(Number),
        count: 3,
        startedBefore: Date.parse('2020-01-01T00:00:00Z'),
        // The run's context every one-job JSON event carries: no batch, nothing to restart.
        job: 'web',
        namespace: 'default',
        batch: 0,
        batches: 0,
        totals: { restarted: 0, failed: 0 },
      },
      // The run-level events (no line in text): a run that had nothing to restart is recorded too.
      expect.objectContaining({ type: 'run-started', planned: 0 }),
      expect.objectContaining({ type: 'run-ended', outcome: 'succeeded' }),
    ]);
  });
});
