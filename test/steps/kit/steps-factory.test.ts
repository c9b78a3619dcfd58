/**
 * Scenario: the workflow's steps (`createRestartSteps`) driven in the order the state
 * machine runs them, against the simulator over HTTP with an in-memory plan store: an
 * in-place run in batches, a system-job reschedule (stop, evaluate, await), a proceed
 * question answered with a wait, and an active deployment that blocks the run.
 */

import { createRestartSteps } from '../../../lib/steps/kit/steps-factory';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import type { RestartSteps } from '../../../lib/workflow/restart-steps';
import { restartOptions } from '../../fixtures/restart-options';
import { drive } from '../helpers/drive';
import {
  type Harness,
  harnessPerTest,
  holdDeploymentRunning,
  simpleJob,
  waitAllRunning,
} from '../helpers/harness';

describe('createRestartSteps', () => {
  const harness = harnessPerTest();

  function steps(harness: Harness): RestartSteps {
    return createRestartSteps({
      nomad: harness.client,
      planStore: new MemoryPlanStore(),
      now: Date.now,
      signal: new AbortController().signal,
    });
  }

  it('restarts in place batch by batch and succeeds', async () => {
    // Arrange
    const job = simpleJob('steps', 'service', 3);
    const h = await harness.startRunning(job);

    // Act
    const { summary, events } = await drive(
      steps(h),
      restartOptions(job.ID, { batchSize: { value: 2, percent: false } }),
    );

    // Assert
    expect(summary).toMatchObject({
      outcome: 'succeeded',
      jobId: 'steps',
      namespace: 'default',
      restarted: 3,
      failed: 0,
      errorText: '',
    });
    expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(3);
    expect(events.filter((e) => e.type === 'batch-started')).toHaveLength(2);
  });

  it("sends the run's region on every request of every step, whatever the client was built with", async () => {
    // Arrange: on AWS the options are the only place the user's -region reaches the Lambda.
    const job = simpleJob('steps_region', 'service', 2);
    const h = await harness.startRunning(job);
    h.sim.control.resetCounters();

    // Act
    const { summary } = await drive(
      steps(h),
      restartOptions(job.ID, { region: 'global', batchSize: { value: 1, percent: false } }),
    );

    // Assert
    expect(summary.outcome).toBe('succeeded');
    const log = h.sim.control.requestLog();
    expect(log.length).toBeGreaterThan(4);
    expect(log.filter((r) => new URLSearchParams(r.query).get('region') !== 'global')).toEqual([]);
  });

  it('stops, evaluates and awaits a system job, one allocation per batch', async () => {
    // Arrange
    const job = simpleJob('steps_system', 'system', 1);
    const h = await harness.start({ nodes: [{ name: 'n1' }, { name: 'n2' }], jobs: [job] });
    await waitAllRunning(h, job.ID, 2);

    // Act
    const { summary, events } = await drive(steps(h), restartOptions(job.ID, { reschedule: true }));

    // Assert
    expect(summary.outcome).toBe('succeeded');
    expect(summary.restarted).toBe(2);
    expect(h.sim.control.counters()['PUT /v1/job/:id/evaluate']).toBe(2);
    expect(events.filter((e) => e.type === 'allocation-replaced')).toHaveLength(2);
  });

  it('asks between batches and takes a duration answer as the new wait', async () => {
    // Arrange
    const job = simpleJob('steps_ask', 'service', 3);
    const h = await harness.startRunning(job);
    const options = restartOptions(job.ID, { yes: false, batchWait: { kind: 'ask' } });

    // Act
    const { summary, events, questions } = await drive(steps(h), options, ['10s']);

    // Assert
    expect(questions).toEqual(['Proceed with the next batch? [Y/n/<wait duration>]']);
    expect(events.filter((e) => e.type === 'new-batch-wait')).toEqual([
      expect.objectContaining({ waitMs: 10_000 }),
    ]);
    expect(events.filter((e) => e.type === 'waiting')).toHaveLength(2);
    expect(summary.outcome).toBe('succeeded');
  });

  it('records an active deployment as the run error', async () => {
    // Arrange
    const job = { ...simpleJob('steps_deploy', 'service', 1), Update: { MaxParallel: 1 } };
    const h = await harness.startRunning(job);
    const deployment = await holdDeploymentRunning(h, job.ID);

    // Act
    const { summary } = await drive(steps(h), restartOptions(job.ID));

    // Assert
    expect(summary.outcome).toBe('failed');
    expect(summary.errorText).toBe(
      `1 error occurred while restarting job:\n* Deployment "${deployment?.ID.slice(0, 8)}" is "running"`,
    );
  });
});
