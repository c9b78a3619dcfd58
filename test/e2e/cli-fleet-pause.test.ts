/**
 * Scenario (issue #39, a fleet paused from its terminal): the real command, at a pseudo-terminal,
 * against the simulator with ACLs on and the README's fleet policy token, restarts four jobs of
 * three allocations, two at a time (`-max-jobs 2`), one allocation per batch with a 2 s batch
 * wait. Ctrl-C during the first wait asks Nomad's interrupt question; `p` pauses the whole fleet
 * (docs/run-control.md "A fleet"): the running jobs pause at their next safe point, no third job
 * starts, and the fleet's one question follows. No restart reaches Nomad (its request log) between
 * the `p` and the answer. `y` resumes every job and the fleet restarts all four, exit 0; `n` ends
 * the two running jobs canceled, starts no other, releases their locks, and exits 0 as a confirmed
 * interrupt does (the operator stopped it).
 */
import { operatorName } from '../../lib/cli/terminal/operator';
import type { Harness } from '../steps/helpers/harness';
import { fleetEnv, inFlight, openFleet, restartedJobs, teamJob } from './helpers/fleet-fixture';
import { runInterruptedAnswering } from './helpers/run-pty';

const RESTART = /^\/v1\/client\/allocation\/[0-9a-f-]{36}\/restart$/;
const INDENT = ' '.repeat(31);
const JOBS = ['a', 'b', 'c', 'd'];
const ARGS = [
  'fleet',
  '-yes',
  '-namespace',
  'payments',
  '-max-jobs',
  '2',
  '-batch-size',
  '1',
  '-batch-wait',
  '2s',
];

/** Past the batch wait and a batch's restart. */
const ANSWER_AFTER_MS = 5_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Four jobs of three allocations, ACLs on; the command paused with `p`, then `answer`. */
async function pauseFleetThenAnswer(answer: 'y' | 'n') {
  h = await openFleet({
    namespaces: ['payments'],
    jobs: JOBS.map((id) => teamJob(id, 'payments', 'payments', 3)),
  });
  const harness = h;
  // The simulator's clock (scaled), so the replies compare with its request log.
  const repliedAt: Record<string, number> = {};
  const result = await runInterruptedAnswering(
    ARGS,
    fleetEnv(h),
    'Waiting 2s before restarting the next batch',
    ['p', answer],
    (reply) => {
      repliedAt[reply] = harness.now();
    },
    // The fleet's question is asked at once: its answer waits past the 2 s batch wait, so the
    // jobs reach their safe point (and would have restarted their next batch, unpaused).
    (reply) => (reply === answer ? ANSWER_AFTER_MS : 0),
  );
  const restarts = h.sim.control
    .requestLog()
    .filter((e) => e.method === 'PUT' && RESTART.test(e.path))
    .map((e) => e.time);
  return {
    ...result,
    restarts,
    pausedAt: repliedAt['p'] ?? Number.NaN,
    answeredAt: repliedAt[answer] ?? Number.NaN,
  };
}

/** The interrupt question answered `p`, then the fleet's one question answered `answer`. */
function pauseLines(answer: string): string[] {
  const me = operatorName();
  return [
    `${INDENT}Are you sure you want to stop the restart process? [y/N] p`,
    'Pause requested: the restart pauses before its next batch',
    `==> <ts>: Paused by ${me} (terminal) at <ts>.`,
    // The jobs' lines wait while the question is open: nothing lands on its line.
    `${INDENT}Resume the restart? [y/N] ${answer}\n`,
  ];
}

/** A running job's line once it reached its safe point, paused by the fleet's pause. */
function pausedLine(job: string): string {
  return `[${job}] ==> <ts>: Restart paused by ${operatorName()} (terminal): no batch starts until it is resumed`;
}

describe('nomad-restart fleet paused at a terminal', () => {
  it('pauses every running job on p, starts no third job, and resumes the whole fleet on y', async () => {
    // Arrange, Act
    const run = await pauseFleetThenAnswer('y');

    // Assert
    expect(run.code).toBe(0);
    for (const line of pauseLines('y')) expect(run.output).toContain(line);
    expect(run.output.match(/Resume the restart\? \[y\/N\]/g)).toHaveLength(1);
    expect(run.restarts.filter((t) => t >= run.pausedAt && t < run.answeredAt)).toEqual([]);
    const paused = inFlight(h as Harness).filter((w) => w.from < run.answeredAt);
    expect(paused).toHaveLength(2);
    for (const { job } of paused) expect(run.output).toContain(pausedLine(job));
    expect(run.restarts).toHaveLength(12);
    expect(restartedJobs(h as Harness)).toEqual(JOBS.map((id) => `payments/${id}`));
    expect(run.output).toMatch(/^Fleet restart finished: 4 jobs restarted, 0 failed, 0 skipped$/m);
  }, 120_000);

  it('stops the fleet on n: the running jobs end canceled, no third job, locks released, exit 0', async () => {
    // Arrange, Act
    const run = await pauseFleetThenAnswer('n');

    // Assert
    expect(run.code).toBe(0);
    for (const line of pauseLines('n')) expect(run.output).toContain(line);
    expect(run.restarts.filter((t) => t >= run.pausedAt)).toEqual([]);
    const started = inFlight(h as Harness).map((w) => w.job);
    expect(started).toHaveLength(2);
    expect(restartedJobs(h as Harness)).toEqual(started.sort());
    const state = (h as Harness).sim.control.state();
    for (const job of started) {
      const id = job.split('/')[1] ?? '';
      expect(run.output).toContain(pausedLine(job));
      expect(run.output).toContain(`[${job}] ==> <ts>: Job restart canceled`);
      expect(state.variable('payments', `nomad-restart/locks/${id}`)?.lock).toBeUndefined();
    }
  }, 120_000);
});
