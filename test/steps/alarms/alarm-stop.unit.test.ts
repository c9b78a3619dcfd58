import type { NomadClient } from '../../../lib/nomad/client';
import type { AlarmReader } from '../../../lib/restart/alarms';
import { stopOnAlarmStep } from '../../../lib/steps/alarms/alarm-stop';
import { createStepKit, type RunRecord } from '../../../lib/steps/kit/step-kit';
import { planKeys } from '../../../lib/stores/plan-keys';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import type { PlannedStepInput } from '../../../lib/workflow/restart-steps';
import { restartOptions } from '../../fixtures/restart-options';

const NOW = Date.UTC(2026, 11, 7, 14, 0, 0);
const firing: AlarmReader = {
  read: async () => [{ name: 'api-5xx', state: 'ALARM', reason: 'Threshold Crossed', since: NOW - 60_000 }],
};

function input(): PlannedStepInput {
  return {
    options: restartOptions('api', { stopOnAlarms: ['api-5xx'] }),
    run: { runId: 'run-1', executionId: 'run-1', executionNumber: 1 },
    plan: {
      planKey: 'runs/run-1/plan',
      jobId: 'api',
      namespace: 'default',
      jobType: 'service',
      allocationCount: 3,
      batchSize: 1,
      batchCount: 3,
      triggerEvaluations: false,
    },
    progress: {
      nextBatch: 1,
      batchesThisExecution: 1,
      restarted: 1,
      failed: 0,
      errorCount: 0,
      askBetweenBatches: false,
      batchWaitMs: 0,
      canceled: false,
    },
  } as PlannedStepInput;
}

describe('stopOnAlarmStep', () => {
  it('stops the run with the alarm as one error, however often the step is retried', async () => {
    // Arrange
    const planStore = new MemoryPlanStore();
    const kit = createStepKit({
      nomad: {} as NomadClient,
      planStore,
      now: () => NOW,
      signal: new AbortController().signal,
      alarms: firing,
    });

    // Act
    const first = await stopOnAlarmStep(kit, input());
    const retried = await stopOnAlarmStep(kit, input());

    // Assert
    expect(first?.guard).toEqual({ blocked: true, canceled: false, windowEnded: false, alarmFired: true });
    expect(retried?.progress.errorCount).toBe(1);
    const record = (await planStore.get(planKeys.runRecord('run-1'))) as RunRecord;
    expect(record.stoppedOn).toBe('alarm');
    expect(record.errors.map((e) => e.message)).toEqual([
      'Alarm "api-5xx" is in ALARM since 2026-12-07T13:59:00.000Z: Threshold Crossed',
    ]);
    expect(first?.events).toEqual([
      {
        type: 'alarm-fired',
        time: NOW,
        alarm: { name: 'api-5xx', reason: 'Threshold Crossed', since: NOW - 60_000 },
      },
    ]);
  });

  it('goes on while no alarm is in ALARM', async () => {
    // Arrange
    const kit = createStepKit({
      nomad: {} as NomadClient,
      planStore: new MemoryPlanStore(),
      now: () => NOW,
      signal: new AbortController().signal,
      alarms: { read: async () => [{ name: 'api-5xx', state: 'OK', reason: '', since: NOW }] },
    });

    // Act, Assert
    await expect(stopOnAlarmStep(kit, input())).resolves.toBeUndefined();
  });

  it('refuses to go on unwatched when no reader is configured', async () => {
    // Arrange
    const kit = createStepKit({
      nomad: {} as NomadClient,
      planStore: new MemoryPlanStore(),
      now: () => NOW,
      signal: new AbortController().signal,
    });

    // Act, Assert
    await expect(stopOnAlarmStep(kit, input())).rejects.toThrow(
      '-stop-on-alarm is set but no CloudWatch client is configured',
    );
  });
});
