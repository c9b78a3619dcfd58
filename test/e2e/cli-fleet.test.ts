// Scenario: `nomad-restart fleet` through the real command (a subprocess running the synthesized
// fleet state machine through the local engine) against the simulator with ACLs on and the
// README's policy (plus what a fleet reads: node:read, node pools). What the fleet did is read
// back from the simulator's request log: which jobs' allocations got a restart request, how many
// jobs held their lock at once, and that a dry run or a refused command line sent no write.
import type { Job } from '../../lib/nomad/types';
import type { Harness } from '../steps/helpers/harness';
import {
  fleetEnv,
  inFlight,
  openFleet,
  peakInFlight,
  restartedJobs,
  restartedNodes,
  teamJob,
  writes,
} from './helpers/fleet-fixture';
import { runCli } from './helpers/run-cli';

const PAYMENTS_FILTER = 'Meta.team == "payments"';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Payments jobs in two namespaces, a search job, and payments jobs no fleet restarts. */
function paymentsFleet(): Job[] {
  return [
    teamJob('api', 'payments', 'payments'),
    teamJob('worker', 'payments', 'payments'),
    teamJob('web', 'default', 'payments', 1),
    teamJob('indexer', 'search', 'search'),
    { ...teamJob('nightly', 'payments', 'payments', 1), Type: 'sysbatch' },
    {
      ...teamJob('report', 'payments', 'payments', 1),
      Type: 'batch',
      Periodic: { Enabled: true, Spec: '0 * * * *', SpecType: 'cron' },
    },
    {
      ...teamJob('export', 'payments', 'payments', 1),
      Type: 'batch',
      ParameterizedJob: { Payload: 'optional' },
    },
    { ...teamJob('retired', 'payments', 'payments', 1), Stop: true },
  ];
}

describe('nomad-restart fleet against the simulator', () => {
  it('restarts the jobs -namespace "*" -filter selects, skipping the kinds it cannot restart, exit 0', async () => {
    // Arrange
    h = await openFleet({ namespaces: ['payments', 'search'], jobs: paymentsFleet() });

    // Act
    const result = await runCli(
      ['fleet', '-yes', '-namespace', '*', '-filter', PAYMENTS_FILTER],
      fleetEnv(h),
    );

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('==> <ts>: Restarting 5 allocations of 3 jobs');
    expect(lines).toContain('==> <ts>: Restarting job "web" in namespace "default" (1 of 3)');
    expect(lines).toContain('==> <ts>: Restarting job "api" in namespace "payments" (2 of 3)');
    expect(lines).toContain('==> <ts>: Restarting job "worker" in namespace "payments" (3 of 3)');
    expect(result.stdout).toMatch(/^Fleet restart finished: 3 jobs restarted, 0 failed, 4 skipped$/m);
    expect(restartedJobs(h)).toEqual(['default/web', 'payments/api', 'payments/worker']);
  });

  it('prints the plan with -dry-run and sends no write', async () => {
    // Arrange
    h = await openFleet({ namespaces: ['payments', 'search'], jobs: paymentsFleet() });

    // Act
    const result = await runCli(
      ['fleet', '-dry-run', '-namespace', '*', '-filter', PAYMENTS_FILTER, '-max-jobs', '2'],
      fleetEnv(h),
    );

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Dry run: would restart 5 allocations of 3 jobs, at most 2 at a time');
    expect(result.stdout).toContain('Job "api" in namespace "payments" (2 of 3): 2 allocations');
    expect(result.stdout).toContain('Skipping 4 jobs');
    expect(writes(h)).toEqual([]);
  });

  it('prints one JSON object a line with -output json: each job’s events named, and the fleet’s own', async () => {
    // Arrange
    h = await openFleet({ namespaces: ['payments', 'search'], jobs: paymentsFleet() });

    // Act
    const result = await runCli(
      ['fleet', '-yes', '-output', 'json', '-namespace', '*', '-filter', PAYMENTS_FILTER],
      fleetEnv(h),
    );

    // Assert
    expect(result.code).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; job?: string; namespace?: string });
    const fleetTypes = ['fleet-planned', 'job-started', 'job-finished', 'fleet-finished'];
    expect(events[0]?.type).toBe('fleet-planned');
    expect(events.at(-1)).toEqual(
      expect.objectContaining({ type: 'fleet-finished', restarted: 3, skipped: 4 }),
    );
    const jobEvents = events.filter((e) => !fleetTypes.includes(e.type));
    expect(jobEvents.length).toBeGreaterThan(0);
    for (const e of jobEvents)
      expect(e).toEqual(expect.objectContaining({ job: expect.any(String), namespace: expect.any(String) }));
    expect(events.filter((e) => e.type === 'job-started').map((e) => `${e.namespace}/${e.job}`)).toEqual([
      'default/web',
      'payments/api',
      'payments/worker',
    ]);
    // Each job's run-level events (issue #40) come with the job too: one batch-finished a batch.
    expect(
      events
        .filter((e) => e.type === 'batch-finished')
        .map((e) => `${e.namespace}/${e.job}`)
        .sort(),
    ).toEqual(['default/web', 'payments/api', 'payments/api', 'payments/worker', 'payments/worker']);
  });

  it('keeps at most -max-jobs 3 jobs in flight, and does have 3', async () => {
    // Arrange
    const jobs = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => teamJob(id, 'payments', 'payments', 2));
    h = await openFleet({ namespaces: ['payments'], jobs });

    // Act
    const result = await runCli(
      ['fleet', '-yes', '-namespace', 'payments', '-max-jobs', '3', '-batch-wait', '1s'],
      fleetEnv(h),
    );

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Fleet restart finished: 6 jobs restarted, 0 failed, 0 skipped$/m);
    expect(result.stdout).toContain(
      '[payments/a] ==> <ts>: Restarting job "a" in namespace "payments" (1 of 6)',
    );
    expect(inFlight(h)).toHaveLength(6);
    expect(peakInFlight(h)).toBe(3);
  });

  it('starts no job after the second failed one with -max-failed-jobs 1, exit 1', async () => {
    // Arrange: every restart of jobs a and b fails, so each of them fails at its first batch.
    const jobs = ['a', 'b', 'c', 'd'].map((id) => teamJob(id, 'payments', 'payments', 1));
    h = await openFleet({ namespaces: ['payments'], jobs });
    for (const alloc of h.sim.control.state().allocations())
      if (alloc.JobID === 'a' || alloc.JobID === 'b')
        h.sim.control.injectFault({
          pathSuffix: `/v1/client/allocation/${alloc.ID}/restart`,
          status: 500,
          body: 'boom',
        });

    // Act
    const result = await runCli(
      ['fleet', '-yes', '-max-errors', '0', '-namespace', 'payments', '-max-failed-jobs', '1'],
      fleetEnv(h),
    );

    // Assert
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^Fleet restart finished with errors: 0 jobs restarted, 2 failed, 2 skipped$/m,
    );
    expect(inFlight(h).map((w) => w.job)).toEqual(['payments/a', 'payments/b']);
  });

  it('skips a job another run holds, naming the holder, restarts the rest, exit 1', async () => {
    // Arrange: a one-job run holds "held" (one batch, then a long wait) while the fleet runs.
    const jobs = [teamJob('free', 'payments', 'payments', 1), teamJob('held', 'payments', 'payments', 2)];
    h = await openFleet({ namespaces: ['payments'], jobs });
    const env = { ...fleetEnv(h), NOMAD_NAMESPACE: 'payments' };
    const holder = runCli(['-yes', '-batch-size', '1', '-batch-wait', '20s', 'held'], env);
    await h.sim.control.waitFor(
      (s) => s.variable('payments', 'nomad-restart/locks/held')?.lock !== undefined,
      120_000,
    );

    // Act
    const result = await runCli(['fleet', '-yes', '-namespace', 'payments'], fleetEnv(h));
    await holder;

    // Assert
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^Fleet restart finished with errors: 1 jobs restarted, 0 failed, 1 skipped$/m,
    );
    expect(result.stdout).toMatch(/^ {2}payments\/held: locked by run ".+" \(started by .+\)$/m);
    expect(result.stderr).toMatch(
      /^Skipping job "held" in namespace "payments": locked by run "[^"]+" \(started by /m,
    );
    expect(restartedJobs(h)).toContain('payments/free');
  });

  it('restarts only allocations on the -node given by prefix', async () => {
    // Arrange
    h = await openFleet({
      namespaces: ['payments'],
      nodes: [{ name: 'node1' }, { name: 'node2' }],
      jobs: [{ ...teamJob('spread', 'payments', 'payments', 1), Type: 'system' }],
    });
    const node = h.sim.control
      .state()
      .nodes()
      .find((n) => n.Name === 'node2');
    const prefix = (node?.ID ?? '').slice(0, 8);

    // Act
    const result = await runCli(['fleet', '-yes', '-namespace', 'payments', '-node', prefix], fleetEnv(h));

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(restartedNodes(h)).toEqual([node?.ID]);
  });

  it('restarts only allocations in the -datacenter', async () => {
    // Arrange
    h = await openFleet({
      namespaces: ['payments'],
      nodes: [
        { name: 'east', datacenter: 'dc1' },
        { name: 'west', datacenter: 'dc2' },
      ],
      jobs: [
        { ...teamJob('spread', 'payments', 'payments', 1), Type: 'system', Datacenters: ['dc1', 'dc2'] },
      ],
    });
    const west = h.sim.control
      .state()
      .nodes()
      .find((n) => n.Name === 'west');

    // Act
    const result = await runCli(
      ['fleet', '-yes', '-namespace', 'payments', '-datacenter', 'dc2'],
      fleetEnv(h),
    );

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(restartedNodes(h)).toEqual([west?.ID]);
  });

  it('restarts only the jobs with allocations in the -node-pool', async () => {
    // Arrange
    h = await openFleet({
      namespaces: ['payments'],
      nodes: [{ name: 'cpu1' }, { name: 'gpu1', pool: 'gpu' }],
      jobs: [
        { ...teamJob('trainer', 'payments', 'payments', 1), NodePool: 'gpu' } as Job,
        teamJob('api', 'payments', 'payments', 1),
      ],
    });

    // Act
    const result = await runCli(['fleet', '-yes', '-node-pool', 'gpu', '-namespace', '*'], fleetEnv(h));

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(restartedJobs(h)).toEqual(['payments/trainer']);
  });

  it.each([
    { name: 'a malformed -filter', args: ['-filter', 'Meta.team ==='], stderr: /filter/ },
    { name: 'a -node prefix that matches no node', args: ['-node', 'ffffffff'], stderr: /ffffffff/ },
    { name: 'an unknown -node-pool', args: ['-node-pool', 'nope'], stderr: /nope/ },
  ])('refuses $name in Nomad’s words before anything is touched, exit 1', async ({ args, stderr }) => {
    // Arrange
    h = await openFleet({ namespaces: ['payments'], jobs: [teamJob('api', 'payments', 'payments', 1)] });

    // Act
    const result = await runCli(['fleet', '-yes', ...args], fleetEnv(h));

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(stderr);
    expect(writes(h).filter((e) => !e.path.startsWith('/v1/var/'))).toEqual([]);
    expect(restartedJobs(h)).toEqual([]);
  });
});
