import type { HistoryEvent } from '@aws-sdk/client-sfn';
import { FleetTracker } from '../../../lib/engines/aws/fleet-tracker';
import { FleetTaskStates } from '../../../lib/workflow/fleet-state-names';

describe('FleetTracker', () => {
  describe('apply', () => {
    it('tells the plan of a -uses-variable -stale run with its consumers and the variables found', () => {
      // Arrange
      const plan = {
        jobs: 3,
        allocations: 6,
        skipped: 1,
        namespaces: ['default', 'payments'],
        itemsKey: 'i',
        skippedKey: 's',
        resultsPrefix: 'r',
        consumers: { inspected: 6, consumers: 3 },
        variables: [{ namespace: 'payments', path: 'nomad/jobs/shared/db', found: 1 }],
      };
      const exited: HistoryEvent = {
        id: 5,
        timestamp: new Date(Date.UTC(2026, 11, 7, 2)),
        type: 'TaskStateExited',
        stateExitedEventDetails: {
          name: FleetTaskStates.planFleet,
          output: JSON.stringify({ plan, budget: { maxJobs: 1, maxFailedJobs: 0 } }),
        },
      };

      // Act
      const events = new FleetTracker().apply(exited);

      // Assert
      expect(events).toEqual([
        {
          type: 'fleet-planned',
          time: Date.UTC(2026, 11, 7, 2),
          jobs: 3,
          allocations: 6,
          skipped: [],
          namespaces: ['default', 'payments'],
          consumers: { inspected: 6, consumers: 3 },
          variables: [{ namespace: 'payments', path: 'nomad/jobs/shared/db', found: 1 }],
        },
      ]);
    });
  });
});
