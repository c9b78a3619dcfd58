// Scenario: the real `nomad-restart` command (a subprocess running the synthesized state
// machine through the local engine) against the simulator over HTTP on 127.0.0.1, or against
// the agent at NOMAD_E2E_ADDR, replaying Nomad's own job restart tests
// (`command/job_restart_test.go`: T4, T5, T7, T10, T12, T14; T3 has its own file) plus -dry-run and
// the demo. What Nomad was asked to do is read back through the API (task events, stopped and
// replaced allocations); against the simulator its request counters are checked as well. One file,
// run in order, so the definition is synthesized once.

import type { AllocListStub } from '../../lib/nomad/types';
import { simpleJob } from '../steps/helpers/harness';
import { type E2eSetup, type E2eTarget, openE2e, wasRestarted } from './helpers/e2e-target';
import { runCli } from './helpers/run-cli';
import { startStubProxy } from './helpers/stub-proxy';

const RESTART = 'PUT /v1/client/allocation/:id/restart';
const STOP = 'PUT /v1/allocation/:id/stop';
const EVALUATE = 'PUT /v1/job/:id/evaluate';

const env = (t: E2eTarget) => t.env;
const opened: E2eTarget[] = [];
/** A target closed after the test even when an assertion fails first. */
async function target(setup: E2eSetup): Promise<E2eTarget> {
  const t = await openE2e(setup);
  opened.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});
const writes = (t: E2eTarget) => {
  const c = t.sim?.control.counters() ?? {};
  return (c[RESTART] ?? 0) + (c[STOP] ?? 0) + (c[EVALUATE] ?? 0);
};
/** What a restart, stop or reschedule would have left on the allocations. */
const touched = (allocations: readonly AllocListStub[]) =>
  allocations.filter((a) => wasRestarted(a) || a.DesiredStatus !== 'run' || a.NextAllocation);

describe('nomad-restart against the simulator or NOMAD_E2E_ADDR', () => {
  describe('system job reschedule (T4)', () => {
    it('stops and evaluates each allocation, and every one is replaced', async () => {
      // Arrange: three nodes on the simulator; an agent has the nodes it has.
      const t = await target({
        nodes: [{ name: 'n1' }, { name: 'n2' }, { name: 'n3' }],
        jobs: [{ ...simpleJob('test_job', 'system', 1, 'group'), Priority: 100 }],
      });
      const nodes = (await t.readyNodes()).length;
      await t.waitRunning('test_job', nodes);
      const originals = (await t.allocations('test_job')).map((a) => a.ID);

      // Act
      const result = await runCli(['-yes', '-verbose', '-reschedule', 'test_job'], env(t));
      const after = await t.allocations('test_job');

      // Assert
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        `==> <ts>: Restarting ${nodes === 1 ? '1 allocation' : `${nodes} allocations`}\n`,
      );
      for (const id of originals) {
        expect(result.stdout).toContain(`Rescheduling allocation "${id}"`);
        expect(result.stdout).toContain(`Allocation "${id}" replaced by`);
        expect(after.find((a) => a.ID === id)?.NextAllocation).toBeTruthy();
      }
      const replacements = after.filter((a) => !originals.includes(a.ID));
      expect(replacements.map((a) => a.ID).sort()).toEqual(
        after
          .filter((a) => originals.includes(a.ID))
          .map((a) => a.NextAllocation)
          .sort(),
      );
      expect(replacements.filter((a) => a.ClientStatus === 'running')).toHaveLength(nodes);
      if (t.sim) {
        const counters = t.sim.control.counters();
        expect(counters[STOP]).toBe(3);
        expect(counters[EVALUATE]).toBe(3);
      }
    });
  });

  describe('guards', () => {
    it('refuses -reschedule on a sysbatch job with zero writes (T5)', async () => {
      // Arrange
      const t = await target({ jobs: [simpleJob('test_sysbatch_job', 'sysbatch', 1, 'group')] });

      // Act
      const result = await runCli(['-yes', '-verbose', '-reschedule', 'test_sysbatch_job'], env(t));

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('Jobs of type "sysbatch" are not allowed to be rescheduled.\n');
      expect(writes(t)).toBe(0);
      expect(touched(await t.allocations('test_sysbatch_job'))).toEqual([]);
    });

    it('prints No allocations to restart and exits 0 (T7)', async () => {
      // Arrange
      const job = { ...simpleJob('test_job_restart_no_allocs', 'batch', 1), Datacenters: ['invalid'] };
      const t = await target({ jobs: [job] });

      // Act
      const result = await runCli(['-yes', 'test_job_restart_no_allocs'], env(t));

      // Assert
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('No allocations to restart\n');
    });

    it('stops on an active deployment without restarting anything (T10)', async () => {
      // Arrange: a canary awaiting manual promotion keeps the deployment "running", as upstream.
      const job = {
        ...simpleJob('test_job_restart_deployment', 'service', 1),
        Update: { MaxParallel: 1, Canary: 1, AutoPromote: false },
      };
      const t = await target({ jobs: [job] });
      await t.waitRunning(job.ID, 1);
      await t.register({ ...job, Meta: { version: '2' } });
      let deployment: string | undefined;
      for (let tries = 0; !deployment && tries < 500; tries++) {
        const newest = (await t.deployments(job.ID)).find((d) => d.JobVersion === 1);
        if (newest?.Status === 'running') deployment = newest.ID;
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }

      // Act
      const result = await runCli(['-on-error', 'fail', '-verbose', job.ID], env(t));

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `\n1 error occurred while restarting job:\n* Deployment "${deployment}" is "running"\n`,
      );
      expect(writes(t)).toBe(0);
      expect((await t.allocations(job.ID)).filter(wasRestarted)).toEqual([]);
    });

    it('stops after a 502 on the 2nd restart with -on-error fail: exactly 2 restarts (T14)', async () => {
      // Arrange: upstream's proxy lets the 2nd restart through and turns its answer into a 502.
      const t = await target({ jobs: [simpleJob('test_job_on_error_fail', 'batch', 3)] });
      await t.waitRunning('test_job_on_error_fail', 3);
      const proxy = await startStubProxy(t.address, {}, [
        { pathSuffix: '/restart', nth: 2, status: 502, body: '', forward: true },
      ]);

      // Act
      const result = await runCli(['-on-error', 'fail', 'test_job_on_error_fail'], {
        ...t.env,
        NOMAD_ADDR: proxy.address,
      });
      await proxy.close();
      const allocations = await t.allocationsWhen(
        'test_job_on_error_fail',
        (all) => all.filter(wasRestarted).length === 2,
      );

      // Assert
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('==> <ts>: Stopping job restart due to error');
      expect(result.stdout).toContain('==> <ts>: Job restart finished with errors');
      expect(result.stderr).toMatch(
        /Error restarting allocation "[0-9a-f]{8}": Unexpected response code: 502\n$/,
      );
      expect(proxy.requests('PUT', '/restart')).toBe(2);
      expect(allocations.filter(wasRestarted)).toHaveLength(2);
      if (t.sim) expect(t.sim.control.counters()[RESTART]).toBe(2);
    });
  });

  describe('shutdown delay on reschedule (T12)', () => {
    /** Simulated or real ms from a task's last `Killing` event to its last `Killed` event. */
    const killMs = (allocation: AllocListStub | undefined): number => {
      const events = allocation?.TaskStates?.['task1']?.Events ?? [];
      const time = (type: string) => events.filter((e) => e.Type === type).at(-1)?.Time ?? Number.NaN;
      return (time('Killed') - time('Killing')) / 1e6;
    };

    it.each([
      { name: '12.1 job reschedule with shutdown delay by default', args: [], delayed: true },
      { name: '12.2 job reschedule no shutdown delay', args: ['-no-shutdown-delay'], delayed: false },
    ])('$name', async ({ name, args, delayed }) => {
      // Arrange: upstream's job, without its service (the task delay does not need one).
      const id = name.replace(/[^a-zA-Z0-9]+/g, '-');
      const job = simpleJob(id, 'service', 2);
      for (const task of job.TaskGroups?.[0]?.Tasks ?? []) {
        task.Config = { run_for: '10m' };
        task.ShutdownDelay = 3_000_000_000;
      }
      const t = await target({ jobs: [job] });
      await t.waitRunning(id, 2);
      const originals = (await t.allocations(id)).map((a) => a.ID);

      // Act
      const result = await runCli(
        ['-batch-size', '1', '-batch-wait', '0', '-yes', '-reschedule', ...args, id],
        env(t),
      );
      const after = await t.allocationsWhen(id, (all) =>
        originals.every((o) => !Number.isNaN(killMs(all.find((a) => a.ID === o)))),
      );

      // Assert
      expect(result.code).toBe(0);
      for (const original of originals.map((o) => after.find((a) => a.ID === o))) {
        expect(original?.NextAllocation).toBeTruthy();
        if (delayed) expect(killMs(original)).toBeGreaterThanOrEqual(3000);
        else {
          // Not timed: a loaded machine stretches the kill itself; the client's own event says it.
          expect(original?.DesiredTransition?.NoShutdownDelay).toBe(true);
          const types = original?.TaskStates?.['task1']?.Events?.map((e) => e.Type);
          expect(types).toContain('Skipping shutdown delay');
        }
      }
    });
  });

  describe('-dry-run', () => {
    it('prints the plan and the requests it would make without a single write', async () => {
      // Arrange
      const t = await target({ jobs: [simpleJob('web', 'service', 3)] });
      await t.waitRunning('web', 3);

      // Act
      const result = await runCli(['-yes', '-dry-run', '-batch-size', '2', 'web'], env(t));

      // Assert
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        'Dry run: would restart 3 allocations of job "web" in 2 batches of up to 2',
      );
      expect(result.stdout.match(/PUT \/v1\/client\/allocation\/[0-9a-f-]{36}\/restart/g)).toHaveLength(3);
      expect(writes(t)).toBe(0);
      expect(touched(await t.allocations('web'))).toEqual([]);
    });
  });

  describe('-dry-run without -yes and without a terminal', () => {
    it('plans with the questions left at "ask", since a dry run asks nothing', async () => {
      // Arrange
      const t = await target({ jobs: [simpleJob('web', 'service', 2)] });
      await t.waitRunning('web', 2);

      // Act
      const result = await runCli(['-dry-run', '-batch-wait', 'ask', 'web'], env(t));

      // Assert
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Dry run: would restart 2 allocations of job "web"');
      expect(writes(t)).toBe(0);
    });
  });

  describe('an unreachable Nomad', () => {
    it('prints Nomad’s prefix-query error and no stack trace', async () => {
      // Act
      const result = await runCli(['-yes', 'example'], { NOMAD_ADDR: 'http://127.0.0.1:9' });

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        'Error querying job prefix "example": Get "http://127.0.0.1:9/v1/jobs?per_page=20&prefix=example": dial tcp 127.0.0.1:9: connect: connection refused\n',
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  });

  describe('demo', () => {
    it('restarts the docs example three ways, each ending in success', async () => {
      // Act
      const result = await runCli(['demo']);

      // Assert
      expect(result.code).toBe(0);
      expect(result.stdout.match(/^Job restarted successfully!$/gm)).toHaveLength(3);
      expect(result.stdout).toMatch(/in-place restarts\s+5\n/);
      expect(result.stdout).toMatch(/job evaluations\s+2\n/);
    });
  });
});
