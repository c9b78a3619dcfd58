/**
 * Scenarios: `-reschedule` runs of the synthesized workflow, through the local engine, against
 * the simulator over HTTP. T3 3.13/3.14 (service and
 * batch jobs in batches), T4 (system job: stop AND evaluate per allocation, replacements on
 * the same node), T8 (ineligible node: placement failure is unrecoverable, the third
 * allocation is never touched), and a system job whose allocations' job version was pruned
 * (README, "Differences from nomad job restart": it still gets its evaluation, from the job's own type).
 */

import type { RestartOptions } from '../../../lib/restart/options';
import { restartOptions } from '../../fixtures/restart-options';
import {
  allocationsOf,
  eventsOf,
  harnessPerTest,
  simpleJob,
  t3Job,
  waitAllRunning,
} from '../../steps/helpers/harness';
import { runWorkflow } from './helpers/workflow-harness';

const STOP = 'PUT /v1/allocation/:id/stop';
const EVALUATE = 'PUT /v1/job/:id/evaluate';

describe('the workflow', () => {
  const harness = harnessPerTest();

  describe('with -reschedule (T3 3.13, 3.14)', () => {
    const rows: Array<{
      name: string;
      type: 'batch' | 'service';
      over: Partial<RestartOptions>;
      replaced: string[];
      batchSizes: number[];
    }> = (['batch', 'service'] as const).flatMap((type) => [
      {
        name: '3.13 reschedules in batches',
        type,
        over: { batchSize: { value: 3, percent: false } },
        replaced: ['single_task', 'multiple_tasks'],
        batchSizes: [3, 2],
      },
      {
        name: '3.14 reschedules a specific group',
        type,
        over: { batchSize: { value: 100, percent: true }, groups: ['single_task'] },
        replaced: ['single_task'],
        batchSizes: [3],
      },
    ]);

    it.each(rows)('$name ($type job)', async ({ type, over, replaced, batchSizes }) => {
      // Arrange
      const job = t3Job(type);
      const h = await harness.startRunning(job);
      const originals = allocationsOf(h, job.ID).filter((a) => replaced.includes(a.TaskGroup));

      // Act
      const { exitCode, events } = await runWorkflow(
        h,
        restartOptions(job.ID, { reschedule: true, ...over }),
      );

      // Assert
      expect(exitCode).toBe(0);
      const after = new Map(allocationsOf(h, job.ID).map((a) => [a.ID, a]));
      for (const original of originals) {
        const next = after.get(original.ID)?.NextAllocation;
        expect(next).toBeTruthy();
        expect(after.get(next ?? '')?.ClientStatus).toBe('running');
      }
      expect(eventsOf(events, 'batch-started').map((e) => e.size)).toEqual(batchSizes);
      expect(eventsOf(events, 'waiting')).toEqual([]);
      expect(
        eventsOf(events, 'allocation-replaced')
          .map((e) => e.allocationId)
          .sort(),
      ).toEqual(originals.map((a) => a.ID).sort());
      expect(h.sim.control.counters()[EVALUATE]).toBeUndefined();
    });
  });

  describe('with -reschedule on a system job (T4)', () => {
    it('stops and evaluates each allocation, and every replacement runs on the same node', async () => {
      // Arrange
      const job = simpleJob('test_job', 'system', 1, 'group');
      const h = await harness.start({ nodes: [{ name: 'n1' }, { name: 'n2' }, { name: 'n3' }], jobs: [job] });
      await waitAllRunning(h, job.ID, 3);
      const originals = allocationsOf(h, job.ID);
      h.sim.control.resetCounters();

      // Act
      const { exitCode, events } = await runWorkflow(
        h,
        restartOptions(job.ID, { reschedule: true, verbose: true }),
      );

      // Assert
      expect(exitCode).toBe(0);
      expect(h.sim.control.counters()[STOP]).toBe(3);
      expect(h.sim.control.counters()[EVALUATE]).toBe(3);
      const after = new Map(allocationsOf(h, job.ID).map((a) => [a.ID, a]));
      for (const original of originals) {
        const replacement = after.get(after.get(original.ID)?.NextAllocation ?? '');
        expect(replacement?.ClientStatus).toBe('running');
        expect(replacement?.NodeID).toBe(original.NodeID);
      }
      expect(eventsOf(events, 'restart-started')).toEqual([expect.objectContaining({ count: 3 })]);
      const rescheduling = eventsOf(events, 'allocation-restarting').map((e) => e.allocationId);
      expect(rescheduling.sort()).toEqual(originals.map((a) => a.ID).sort());
      expect(rescheduling.every((id) => id.length === 36)).toBe(true);
      expect(eventsOf(events, 'evaluation-triggered')).toHaveLength(3);
    });

    it('evaluates from the job type when the allocations\u2019 job version was pruned', async () => {
      // Arrange: seven spec changes outside the group keep the allocations but prune version 0.
      const job = simpleJob('pruned', 'system', 1, 'group');
      const h = await harness.start({ nodes: [{ name: 'n1' }], jobs: [job] });
      await waitAllRunning(h, job.ID, 1);
      for (let priority = 51; priority <= 57; priority++) {
        h.sim.control.registerJob({ ...job, Priority: priority });
      }
      await h.sim.control.waitFor((s) => (s.job(job.ID)?.Version ?? 0) === 7, 5_000);
      const [original] = allocationsOf(h, job.ID);
      expect(original?.JobVersion).toBe(0);

      // Act
      const { exitCode, events } = await runWorkflow(h, restartOptions(job.ID, { reschedule: true }));

      // Assert
      expect(exitCode).toBe(0);
      expect(h.sim.control.counters()[EVALUATE]).toBe(1);
      expect(eventsOf(events, 'allocation-status')).toEqual([
        expect.objectContaining({ status: 'running', verbose: false }),
      ]);
    });
  });

  describe('with -reschedule and no eligible node (T8)', () => {
    it('stops on the unrecoverable placement failure and never touches the third allocation', async () => {
      // Arrange
      const job = simpleJob('test_job_restart_reschedule_fail', 'service', 3);
      const h = await harness.start({ nodes: [{ name: 'n1', id: 'node-1' }], jobs: [job] });
      await waitAllRunning(h, job.ID, 3);
      h.sim.control.setNodeEligibility('node-1', false);
      h.sim.control.resetCounters();

      // Act
      const { exitCode, errors, events, result } = await runWorkflow(
        h,
        restartOptions(job.ID, { reschedule: true, batchSize: { value: 2, percent: false } }),
      );

      // Assert
      expect(exitCode).toBe(1);
      expect(h.sim.control.counters()[STOP]).toBe(2);
      expect(errors.length).toBeGreaterThanOrEqual(1);
      expect(result).toMatchObject({ status: 'FAILED', error: 'UnrecoverableError' });
      expect(errors[0]).toMatch(
        /^Error restarting allocation "[0-9a-f]{8}": Evaluation "[0-9a-f]{8}" has placement failures for group "group1":\n {4}\* No nodes were eligible for evaluation$/,
      );
      expect(eventsOf(events, 'stopping')).toEqual([
        expect.objectContaining({ reason: 'unrecoverable-error' }),
      ]);
    });
  });
});
