// Scenario: the real `nomad-restart` command (a subprocess running the synthesized state
// machine through the local engine) against the simulator over HTTP on 127.0.0.1, replaying
// Nomad's own job restart tests (spec §5: T4, T5, T7, T10, T14; T3 has its own file) plus
// -dry-run and the demo.
// The simulator's counters and task events say what Nomad was asked to do. One file, run in
// order, so the definition is synthesized once.

import { jest } from '@jest/globals';
import { allocationsOf, type Harness, simpleJob, startHarness, waitAllRunning } from '../engine/harness';
import { runCli } from './run-cli';

const RESTART = 'PUT /v1/client/allocation/:id/restart';
const STOP = 'PUT /v1/allocation/:id/stop';
const EVALUATE = 'PUT /v1/job/:id/evaluate';

const env = (h: Harness) => ({ NOMAD_ADDR: h.sim.address });
const opened: Harness[] = [];
/** A harness closed after the test even when an assertion fails first. */
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  opened.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((h) => h.close()));
});
const writes = (h: Harness) => {
  const c = h.sim.control.counters();
  return (c[RESTART] ?? 0) + (c[STOP] ?? 0) + (c[EVALUATE] ?? 0);
};

jest.setTimeout(120_000);

describe('nomad-restart against the simulator', () => {
  describe('system job reschedule (T4)', () => {
    it('stops and evaluates each allocation, and every one is replaced', async () => {
      // Arrange
      const h = await harness({
        nodes: [{ name: 'n1' }, { name: 'n2' }, { name: 'n3' }],
        jobs: [{ ...simpleJob('test_job', 'system', 1, 'group'), Priority: 100 }],
      });
      await waitAllRunning(h, 'test_job', 3);
      const originals = allocationsOf(h, 'test_job').map((a) => a.ID);

      // Act
      const result = await runCli(['-yes', '-verbose', '-reschedule', 'test_job'], env(h));

      // Assert
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Restarting 3 allocations');
      for (const id of originals) {
        expect(result.stdout).toContain(`Rescheduling allocation "${id}"`);
        expect(result.stdout).toContain(`Allocation "${id}" replaced by`);
        expect(h.sim.control.state().allocation(id)?.NextAllocation).toBeTruthy();
      }
      const counters = h.sim.control.counters();
      expect(counters[STOP]).toBe(3);
      expect(counters[EVALUATE]).toBe(3);
    });
  });

  describe('guards', () => {
    it('refuses -reschedule on a sysbatch job with zero writes (T5)', async () => {
      // Arrange
      const h = await harness({ jobs: [simpleJob('test_sysbatch_job', 'sysbatch', 1, 'group')] });

      // Act
      const result = await runCli(['-yes', '-verbose', '-reschedule', 'test_sysbatch_job'], env(h));

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('Jobs of type "sysbatch" are not allowed to be rescheduled.\n');
      expect(writes(h)).toBe(0);
    });

    it('prints No allocations to restart and exits 0 (T7)', async () => {
      // Arrange
      const job = { ...simpleJob('test_job_restart_no_allocs', 'batch', 1), Datacenters: ['invalid'] };
      const h = await harness({ jobs: [job] });

      // Act
      const result = await runCli(['-yes', 'test_job_restart_no_allocs'], env(h));

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
      const h = await harness({ jobs: [job] });
      await waitAllRunning(h, job.ID, 1);
      h.sim.control.registerJob({ ...job, Meta: { version: '2' } });
      await h.sim.control.waitFor(
        (state) => state.deployments({ jobId: job.ID }).some((d) => d.Status === 'running'),
        5_000,
      );
      const deployment = h.sim.control
        .state()
        .deployments({ jobId: job.ID })
        .find((d) => d.Status === 'running');

      // Act
      const result = await runCli(['-on-error', 'fail', '-verbose', job.ID], env(h));

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `\n1 error occurred while restarting job:\n* Deployment "${deployment?.ID}" is "running"\n`,
      );
      expect(writes(h)).toBe(0);
    });

    it('stops after a 502 on the 2nd restart with -on-error fail: exactly 2 restarts (T14)', async () => {
      // Arrange
      const h = await harness({ jobs: [simpleJob('test_job_on_error_fail', 'batch', 3)] });
      await waitAllRunning(h, 'test_job_on_error_fail', 3);
      h.sim.control.injectFault({ pathSuffix: '/restart', nth: 2, status: 502, body: '' });

      // Act
      const result = await runCli(['-on-error', 'fail', 'test_job_on_error_fail'], env(h));

      // Assert
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('==> <ts>: Stopping job restart due to error');
      expect(result.stdout).toContain('==> <ts>: Job restart finished with errors');
      expect(result.stderr).toMatch(
        /Error restarting allocation "[0-9a-f]{8}": Unexpected response code: 502\n$/,
      );
      expect(h.sim.control.counters()[RESTART]).toBe(2);
    });
  });

  describe('-dry-run', () => {
    it('prints the plan and the requests it would make without a single write', async () => {
      // Arrange
      const h = await harness({ jobs: [simpleJob('web', 'service', 3)] });
      await waitAllRunning(h, 'web', 3);

      // Act
      const result = await runCli(['-yes', '-dry-run', '-batch-size', '2', 'web'], env(h));

      // Assert
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        'Dry run: would restart 3 allocations of job "web" in 2 batches of up to 2',
      );
      expect(result.stdout.match(/PUT \/v1\/client\/allocation\/[0-9a-f-]{36}\/restart/g)).toHaveLength(3);
      expect(writes(h)).toBe(0);
    });
  });

  describe('an unreachable Nomad', () => {
    it('prints Nomad’s prefix-query error and no stack trace', async () => {
      // Act
      const result = await runCli(['-yes', 'example'], { NOMAD_ADDR: 'http://127.0.0.1:9' });

      // Assert
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Error querying job prefix "example": .*ECONNREFUSED/);
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
