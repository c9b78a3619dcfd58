// Scenario: -wait-healthy on jobs with Consul services, through the synthesized workflow (local
// engine, real handlers, the command's Consul settings on each invocation) against the
// simulator's Nomad and Consul, read back from their request logs and the run's events. The
// simulator runs 100 simulated ms per real ms; the gate's clock is real, so a check interval
// (simulated, from the job) is waited for in real ms, as the gate's own longer wait:
// - each next batch starts only after the previous batch's Consul check passed, fresh, for
//   -min-healthy-time: the group service keeps its pre-restart `passing` (stale) across a task
//   restart, and the gate waits a check interval for it;
// - a flapping check restarts the -min-healthy-time count;
// - a critical check fails the batch at the deadline with its name and output;
// - warning is healthy only with ignore_warnings; an on_update = "ignore" check is not waited for;
// - a job with Nomad and Consul checks waits for both;
// - Consul unreachable, a refused token, and an answer filtered by ACLs each stop the run before
//   any restart; without -wait-healthy, or without a Consul service, Consul is never contacted.

import type { ConsulClientConfig } from '../../../lib/consul/config';
import { readmeConsulPolicyToken } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { consulJob, consulReads } from '../../steps/health/helpers/consul-fixtures';
import { checkedJob } from '../../steps/health/helpers/health-fixtures';
import { eventsOf, type Harness, harnessPerTest } from '../../steps/helpers/harness';
import { runWorkflow, type WorkflowRun } from './helpers/workflow-harness';

const RESTART = /^\/v1\/client\/allocation\/([^/]+)\/restart$/;
const short = (id: string) => id.slice(0, 8);
/** Consul reads with tiny retry delays (an unreachable Consul is retried, then stops the run). */
const consulOf = (target: Harness, token?: string): ConsulClientConfig => ({
  address: target.sim.consul.address,
  ...(token === undefined ? {} : { token }),
  retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
});

const harness = harnessPerTest();
/** -min-healthy-time 100ms, -healthy-deadline 1.5s: the gate of the cases that end in an error. */
const SHORT_GATE = { minHealthyTimeNs: 100e6, healthyDeadlineNs: 1.5e9 };

/** `{ time, id }` of each restart request Nomad answered, in order (simulated ms). */
function restarts(target: Harness): { time: number; id: string }[] {
  return target.sim.control.requestLog().flatMap((r) => {
    const id = RESTART.exec(r.path)?.[1];
    return id === undefined || r.status !== 200 ? [] : [{ time: r.time, id }];
  });
}

/** Runs `job` restarted one allocation at a time with the gate, on the simulator's clock. */
async function gatedRun(
  target: Harness,
  jobId: string,
  gate: { minHealthyTimeNs: number; healthyDeadlineNs: number },
  extra: { token?: string; consul?: ConsulClientConfig; verbose?: boolean } = {},
): Promise<WorkflowRun> {
  return runWorkflow(
    target,
    restartOptions(jobId, {
      waitHealthy: gate,
      maxErrors: { value: 0, percent: false },
      verbose: extra.verbose ?? false,
    }),
    { consul: extra.consul ?? consulOf(target, extra.token) },
  );
}

describe('-wait-healthy with Consul checks', () => {
  it('starts the next batch only after a fresh passing held for -min-healthy-time, not the stale one', async () => {
    // Arrange: 1 s checks on a group service, `passing` from before the restart. The restart
    // registers the group's services again; with `initial_status = "passing"` Consul never shows
    // the check otherwise, so only a check interval can make its passing fresh (with Consul's
    // default `critical` the gate may or may not read that status before the first run: a race).
    const job = consulJob('fresh', 2, { intervalS: 1, initialStatus: 'passing' });
    const h = await harness.startRunning(job);
    const service = `${job.ID}-web`;
    const passingBefore = h.sim.consul.control.checks(service).map((c) => c.Status);

    // Act
    const run = await gatedRun(h, job.ID, { minHealthyTimeNs: 300e6, healthyDeadlineNs: 20e9 });

    // Assert
    expect(passingBefore).toEqual(['passing', 'passing']);
    expect(run.exitCode).toBe(0);
    const [first, second] = restarts(h);
    const waiting = eventsOf(run.events, 'health-waiting');
    const healthy = eventsOf(run.events, 'allocation-healthy');
    const restarting = eventsOf(run.events, 'allocation-restarting');
    expect(healthy.map((e) => e.allocationId)).toEqual([first?.id, second?.id]);
    expect(healthy.map((e) => e.checks)).toEqual([1, 1]);
    expect(waiting.map((e) => e.consulServices)).toEqual([[service], [service]]);
    // A check interval (1 s) after the tasks were seen started again, then -min-healthy-time:
    // the stale passing, there all along, would have let each through after 300 ms.
    for (const [i, done] of healthy.entries())
      expect(done.time - (waiting[i]?.time ?? Infinity)).toBeGreaterThanOrEqual(1_000 + 300);
    expect(restarting[1]?.time).toBeGreaterThanOrEqual(healthy[0]?.time ?? Infinity);
    // Consul was read before the first restart, and then with blocking queries.
    const reads = consulReads(h.sim.consul.control.requestLog(), service);
    expect(reads[0]?.time).toBeLessThanOrEqual(first?.time ?? 0);
    expect(reads.some((r) => /(^|&)index=\d+/.test(r.query))).toBe(true);
  });

  it('starts -min-healthy-time over when the check flaps', async () => {
    // Arrange: after the restart, runs (one a simulated second, 10 real ms) go passing, critical,
    // passing, ... for 150 criticals (3 real seconds), then passing.
    const job = consulJob('flappy', 1, { intervalS: 1 });
    const h = await harness.startRunning(job);
    h.sim.consul.control.setCheck({ jobId: job.ID }, 'http', { status: 'flapping', flaps: 150 });

    // Act
    const run = await gatedRun(
      h,
      job.ID,
      { minHealthyTimeNs: 500e6, healthyDeadlineNs: 20e9 },
      { verbose: true },
    );

    // Assert
    expect(run.exitCode).toBe(0);
    const resets = eventsOf(run.events, 'health-reset');
    expect(resets.map((e) => e.reason)).toContainEqual(
      expect.stringMatching(/^Consul check "http" of service "flappy-web" is "critical"/),
    );
    const healthy = eventsOf(run.events, 'allocation-healthy');
    expect(healthy).toHaveLength(1);
    expect((healthy[0]?.time ?? 0) - (resets.at(-1)?.time ?? Infinity)).toBeGreaterThanOrEqual(500);
  });

  it('fails the batch at the deadline on a critical check, naming it with its output', async () => {
    // Arrange: registered `warning`, so its first critical run is a change, whose output Consul
    // keeps (it keeps a check's output only when its status changes).
    const job = consulJob('broken', 2, { initialStatus: 'warning' });
    const h = await harness.startRunning(job);
    h.sim.consul.control.setCheck({ jobId: job.ID }, 'http', {
      status: 'critical',
      output: 'HTTP GET http://127.0.0.1/: 503 Service Unavailable',
    });

    // Act
    const run = await gatedRun(h, job.ID, SHORT_GATE);

    // Assert: the second allocation is never restarted.
    expect(run.exitCode).toBe(1);
    const all = restarts(h);
    expect(all).toHaveLength(1);
    const id = short(all[0]?.id ?? '');
    expect(run.errors).toEqual([
      `Error restarting allocation "${id}": Allocation "${id}" did not become healthy within 1.5s: Consul check "http" of service "broken-web" is "critical": HTTP GET http://127.0.0.1/: 503 Service Unavailable`,
    ]);
  });

  it.each([
    { name: 'is not healthy on warning without ignore_warnings', onUpdate: undefined, exitCode: 1 },
    { name: 'is healthy on warning with ignore_warnings', onUpdate: 'ignore_warnings', exitCode: 0 },
  ])('$name', async ({ onUpdate, exitCode }) => {
    // Arrange
    const job = consulJob('warned', 1, onUpdate === undefined ? {} : { onUpdate });
    const h = await harness.startRunning(job);
    h.sim.consul.control.setCheck({ jobId: job.ID }, 'http', { status: 'warning' });

    // Act
    const run = await gatedRun(h, job.ID, SHORT_GATE);

    // Assert
    expect(run.exitCode).toBe(exitCode);
    expect(eventsOf(run.events, 'allocation-healthy')).toHaveLength(exitCode === 0 ? 1 : 0);
    if (exitCode === 1)
      expect(run.errors[0]).toMatch(/Consul check "http" of service "warned-web" is "warning"/);
  });

  it('does not wait for an on_update = "ignore" check', async () => {
    // Arrange: a readiness check that never passes beside the one that does.
    const job = consulJob('ready', 1, {
      extraChecks: [{ Name: 'ready', Type: 'http', Path: '/ready', Interval: 1e9, OnUpdate: 'ignore' }],
    });
    const h = await harness.startRunning(job);
    h.sim.consul.control.setCheck({ jobId: job.ID }, 'ready', { status: 'critical' });

    // Act
    const run = await gatedRun(h, job.ID, { minHealthyTimeNs: 100e6, healthyDeadlineNs: 10e9 });

    // Assert
    expect(run.exitCode).toBe(0);
    expect(eventsOf(run.events, 'allocation-healthy').map((e) => e.checks)).toEqual([1]);
  });

  it.each([
    { failing: 'nomad', reason: /check "nomad-http" is "failure"/ },
    { failing: 'consul', reason: /Consul check "http" of service "mixed-web" is "critical"/ },
  ])('waits for Nomad and Consul checks alike ($failing failing)', async ({ failing, reason }) => {
    // Arrange
    const job = consulJob('mixed', 1, { withNomadCheck: true });
    const h = await harness.startRunning(job);
    if (failing === 'nomad')
      h.sim.control.setCheckBehaviour({ jobId: job.ID }, 'nomad-http', { behaviour: 'never-passing' });
    else h.sim.consul.control.setCheck({ jobId: job.ID }, 'http', { status: 'critical' });

    // Act
    const run = await gatedRun(h, job.ID, SHORT_GATE);

    // Assert
    expect(run.exitCode).toBe(1);
    expect(run.errors[0]).toMatch(reason);
  });

  it('counts both kinds of checks when both pass', async () => {
    // Arrange
    const job = consulJob('both', 1, { withNomadCheck: true });
    const h = await harness.startRunning(job);

    // Act
    const run = await gatedRun(h, job.ID, { minHealthyTimeNs: 100e6, healthyDeadlineNs: 20e9 });

    // Assert
    expect(run.exitCode).toBe(0);
    expect(eventsOf(run.events, 'allocation-healthy').map((e) => e.checks)).toEqual([2]);
  });

  describe('stops the run before any restart', () => {
    it('when Consul cannot be reached, naming its address', async () => {
      // Arrange: nothing listens on the sim's Consul port once it is closed.
      const job = consulJob('unreached', 1);
      const h = await harness.startRunning(job);
      const address = 'http://127.0.0.1:1';

      // Act
      const run = await gatedRun(h, job.ID, SHORT_GATE, {
        consul: { address, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } },
      });

      // Assert
      expect(run.exitCode).toBe(1);
      expect(restarts(h)).toEqual([]);
      expect(run.errors.join('\n')).toContain(`Consul at ${address} is unreachable`);
    });

    it('when Consul refuses the token', async () => {
      // Arrange
      const job = consulJob('refused', 1);
      const h = await harness.startRunning(job);
      h.sim.consul.control.configureAcl({ enabled: true, tokens: [{ secret: 'good', management: true }] });

      // Act
      const run = await gatedRun(h, job.ID, SHORT_GATE, { token: 'bad' });

      // Assert
      expect(run.exitCode).toBe(1);
      expect(restarts(h)).toEqual([]);
      expect(run.errors.join('\n')).toContain('ACL not found');
      expect(run.errors.join('\n')).not.toContain('bad');
    });

    it("restarts with a token of exactly the README's Consul policy, and not without its node rule", async () => {
      // Arrange: Consul shows a check only to a token that may read its service and its node.
      const job = consulJob('policy', 1);
      const h = await harness.startRunning(job);
      const readme = readmeConsulPolicyToken('readme');
      const serviceOnly = { ...readmeConsulPolicyToken('service-only'), nodeRead: [] };
      h.sim.consul.control.configureAcl({ enabled: true, tokens: [readme, serviceOnly] });

      // Act
      const refused = await gatedRun(h, job.ID, SHORT_GATE, { token: 'service-only' });
      const granted = await gatedRun(
        h,
        job.ID,
        { minHealthyTimeNs: 100e6, healthyDeadlineNs: 20e9 },
        { token: 'readme' },
      );

      // Assert: without node:read the answer is filtered and nothing restarts; with it, the run passes.
      expect(refused.exitCode).toBe(1);
      expect(refused.errors.join('\n')).toContain('X-Consul-Results-Filtered-By-ACLs');
      expect(granted.errors).toEqual([]);
      expect(granted.exitCode).toBe(0);
      expect(restarts(h)).toHaveLength(1);
      expect(eventsOf(granted.events, 'allocation-healthy')).toHaveLength(1);
    });

    it("when ACLs hide the service's checks, naming the missing service:read", async () => {
      // Arrange: the token reads nodes and other services only.
      const job = consulJob('hidden', 1);
      const h = await harness.startRunning(job);
      h.sim.consul.control.configureAcl({
        enabled: true,
        tokens: [{ secret: 'narrow', serviceRead: ['other-'], nodeRead: [''] }],
      });

      // Act
      const run = await gatedRun(h, job.ID, SHORT_GATE, { token: 'narrow' });

      // Assert
      expect(run.exitCode).toBe(1);
      expect(restarts(h)).toEqual([]);
      expect(run.errors.join('\n')).toContain('the token needs "service:read" on "hidden-web"');
    });
  });

  it('stops before the next batch when Consul refuses the token mid-run', async () => {
    // Arrange: the token is revoked as the first batch's health wait begins.
    const job = consulJob('revoked', 2);
    const h = await harness.startRunning(job);
    const target = h;
    target.sim.consul.control.configureAcl({ enabled: true, tokens: [{ secret: 'good', management: true }] });
    const revokeBeforeHealth = (state: string, invoke: () => Promise<unknown>) => {
      if (state === 'Await health')
        target.sim.consul.control.configureAcl({
          enabled: true,
          tokens: [{ secret: 'other', management: true }],
        });
      return invoke();
    };

    // Act
    const run = await runWorkflow(
      target,
      restartOptions(job.ID, { waitHealthy: { minHealthyTimeNs: 100e6, healthyDeadlineNs: 20e9 } }),
      { consul: consulOf(target, 'good'), interceptInvocation: revokeBeforeHealth },
    );

    // Assert: the first batch fails on Consul's refusal, not a health verdict; no second restart.
    expect(run.exitCode).toBe(1);
    expect(restarts(target)).toHaveLength(1);
    expect(run.errors.join('\n')).toContain('ACL not found');
    expect(eventsOf(run.events, 'allocation-healthy')).toEqual([]);
  });

  it.each([
    { name: 'without -wait-healthy', job: consulJob('ungated', 1), gated: false },
    { name: 'for a job without Consul services', job: checkedJob('nomadonly', 1), gated: true },
  ])('never contacts Consul $name', async ({ job, gated }) => {
    // Arrange
    const h = await harness.startRunning(job);
    const gate = { minHealthyTimeNs: 100e6, healthyDeadlineNs: 20e9 };

    // Act
    const run = await runWorkflow(h, restartOptions(job.ID, gated ? { waitHealthy: gate } : {}), {
      consul: consulOf(h),
    });

    // Assert
    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(restarts(h)).toHaveLength(1);
    expect(h.sim.consul.control.requestLog()).toEqual([]);
  });
});
