// Scenario: the later steps of a run share one decoded plan (a plan never changes once written),
// a new run's plan replaces it, and a failed read is tried again by the next step.
import { jest } from '@jest/globals';
import type { RestartPlan } from '../../../lib/restart/plan';
import { cachedPlan, rememberPlan } from '../../../lib/steps/kit/plan-cache';

const planFor = (id: string) => ({ kind: 'plan', job: { id } }) as unknown as RestartPlan;

describe('cachedPlan', () => {
  it('reads a run’s plan once for all of its steps', async () => {
    // Arrange
    const load = jest.fn(async (key: string) => planFor(key));

    // Act
    const first = await cachedPlan('run-a/plan.json', load);
    const again = await cachedPlan('run-a/plan.json', load);

    // Assert
    expect(load).toHaveBeenCalledTimes(1);
    expect(again).toBe(first);
  });

  it('reads the next run’s plan instead of serving the previous one', async () => {
    // Arrange
    const load = jest.fn(async (key: string) => planFor(key));
    await cachedPlan('run-b/plan.json', load);

    // Act
    const next = await cachedPlan('run-c/plan.json', load);

    // Assert
    expect(load).toHaveBeenCalledTimes(2);
    expect(next.job.id).toBe('run-c/plan.json');
  });

  it('does not remember a failed read', async () => {
    // Arrange
    const load = jest
      .fn<(key: string) => Promise<RestartPlan>>()
      .mockRejectedValueOnce(new Error('SlowDown'))
      .mockResolvedValueOnce(planFor('run-d'));
    await expect(cachedPlan('run-d/plan.json', load)).rejects.toThrow('SlowDown');

    // Act
    const plan = await cachedPlan('run-d/plan.json', load);

    // Assert
    expect(load).toHaveBeenCalledTimes(2);
    expect(plan.job.id).toBe('run-d');
  });

  it('serves a re-planned run’s new plan, not the one read before', async () => {
    // Arrange
    const load = jest.fn(async (key: string) => planFor(key));
    await cachedPlan('run-e/plan.json', load);
    const replanned = planFor('run-e, planned again');

    // Act
    rememberPlan('run-e/plan.json', replanned);
    const plan = await cachedPlan('run-e/plan.json', load);

    // Assert
    expect(plan).toBe(replanned);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
