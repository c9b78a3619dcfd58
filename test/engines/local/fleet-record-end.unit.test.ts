import { unsummarizedEnd } from '../../../lib/engines/local/fleet-record-end';
import type { FleetJobEnd } from '../../../lib/fleet/job-end';

const END = Date.UTC(2026, 11, 7, 2, 10, 0);
const ends: FleetJobEnd[] = [{ namespace: 'default', job: 'web', outcome: 'restarted' }];

describe('unsummarizedEnd', () => {
  it.each([
    {
      name: 'a stop request',
      fleet: { result: { status: 'ABORTED' as const }, stoppedBy: 'dave@ops', interrupted: false },
      expected: { outcome: 'canceled', stoppedBy: 'dave@ops' },
    },
    {
      name: 'a confirmed interrupt',
      fleet: { result: { status: 'ABORTED' as const }, interrupted: true },
      expected: { outcome: 'canceled' },
    },
    {
      name: 'an abort through its signal',
      fleet: { result: { status: 'ABORTED' as const }, interrupted: false },
      expected: { outcome: 'aborted' },
    },
    {
      name: 'a step that failed',
      fleet: {
        result: { status: 'FAILED' as const, error: 'StepFailed', cause: 'Plan store unreachable' },
        interrupted: false,
      },
      expected: { outcome: 'error', error: 'StepFailed: Plan store unreachable' },
    },
  ])('ends the record of $name', ({ fleet, expected }) => {
    // Act
    const end = unsummarizedEnd({ ...fleet, ends, endedAt: END });

    // Assert
    expect(end).toEqual({ ...expected, ends, endedAt: END });
  });
});
