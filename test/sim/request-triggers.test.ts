// Scenario: the simulator's request triggers (control API, in process): an action armed for
// the Nth request to a path suffix runs exactly once, when that request arrives and before
// it is handled, so a test can change the cluster between two requests of one batch (as in
// test/e2e/cli-scenarios.test.ts: a deployment that starts in the middle of a batch).
import type { AllocListStub, Deployment } from '../../lib/nomad/types';
import { group, job, nodes } from './helpers/fixtures';
import { get, put } from './helpers/http';
import { itSim, sharedTarget, simControl } from './helpers/target';

const RESTART_SUFFIX = '/restart';

describe('simulator', () => {
  const target = sharedTarget();

  const seed = async (): Promise<AllocListStub[]> => {
    simControl(target).seed({ nodes: nodes(1), jobs: [job('web', 'service', [group('g', 3, {}, '1h')])] });
    return (await get<AllocListStub[]>(target.address, '/v1/job/web/allocations')).json;
  };
  const restarts = (id: string) =>
    simControl(target).state().allocation(id)?.TaskStates?.['main']?.Restarts ?? 0;

  describe('onRequest', () => {
    itSim(
      'runs the action once, when the Nth matching request arrives and before it is handled',
      async () => {
        // Arrange
        const control = simControl(target);
        const allocs = await seed();
        const seen: number[][] = [];
        control.onRequest({ pathSuffix: RESTART_SUFFIX, nth: 2 }, () => {
          seen.push(allocs.map((a) => restarts(a.ID)));
        });

        // Act
        for (const alloc of allocs)
          await put(target.address, `/v1/client/allocation/${alloc.ID}/restart`, {});

        // Assert: at the 2nd restart only the 1st allocation had restarted; the action ran once.
        expect(seen).toEqual([[1, 0, 0]]);
        expect(allocs.map((a) => restarts(a.ID))).toEqual([1, 1, 1]);
      },
    );

    itSim('changes what the triggering request itself sees', async () => {
      // Arrange: a job update with a manually promoted canary keeps a deployment running.
      const control = simControl(target);
      const web = job('web', 'service', [group('g', 1, {}, '1h')], {
        Update: { MaxParallel: 1, Canary: 1, AutoPromote: false },
      });
      control.seed({ nodes: nodes(1), jobs: [web] });
      await control.waitFor((s) => s.deployments({ jobId: 'web' }).every((d) => d.Status === 'successful'));
      control.onRequest({ pathSuffix: '/deployments', method: 'get', nth: 2 }, () => {
        control.registerJob({ ...web, Meta: { version: '2' } });
      });

      // Act
      const statuses = async () =>
        (await get<Deployment[]>(target.address, '/v1/job/web/deployments?all=true')).json
          .map((d) => d.Status)
          .filter((s) => s === 'running');
      const first = await statuses();
      const second = await statuses();

      // Assert
      expect(first).toEqual([]);
      expect(second).toEqual(['running']);
    });

    itSim('ignores requests of another method or path, and is disarmed by clearFaults', async () => {
      // Arrange
      const control = simControl(target);
      const [alloc] = await seed();
      let runs = 0;
      control.onRequest({ pathSuffix: RESTART_SUFFIX, method: 'PUT' }, () => {
        runs += 1;
      });
      control.onRequest({ pathSuffix: '/allocations', nth: 1 }, () => {
        runs += 100;
      });
      control.clearFaults();
      control.onRequest({ pathSuffix: RESTART_SUFFIX, method: 'PUT' }, () => {
        runs += 10;
      });

      // Act
      await get(target.address, `/v1/client/allocation/${alloc?.ID}/restart`);
      await get(target.address, '/v1/job/web/allocations');
      await put(target.address, `/v1/client/allocation/${alloc?.ID}/restart`, {});
      await put(target.address, `/v1/client/allocation/${alloc?.ID}/restart`, {});

      // Assert
      expect(runs).toBe(10);
    });
  });
});
