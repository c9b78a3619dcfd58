/**
 * The times a run keeps in its state (lib/steps/lock/run-times.ts): set, removed and read as the
 * time since, one field at a time. The state is plain JSON, so "due next" removes the field
 * rather than leaving it `undefined`.
 */
import { doneAt, dueNext, msSince } from '../../../lib/steps/lock/run-times';
import type { RunRef } from '../../../lib/workflow/payloads';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const RUN: RunRef = { runId: 'run-1', executionId: 'run-1', executionNumber: 1 };

describe('the run times', () => {
  it('sets one time and keeps the other', () => {
    // Arrange
    const renewed = doneAt(RUN, 'leaseRenewedAt', T0);

    // Act
    const read = doneAt(renewed, 'controlReadAt', T0 + 5);

    // Assert
    expect(read).toEqual({ ...RUN, leaseRenewedAt: T0, controlReadAt: T0 + 5 });
  });

  it('removes the field of a time due next, leaving the other', () => {
    // Arrange
    const both = doneAt(doneAt(RUN, 'leaseRenewedAt', T0), 'controlReadAt', T0);

    // Act
    const due = dueNext(both, 'controlReadAt');

    // Assert
    expect(Object.keys(due)).not.toContain('controlReadAt');
    expect(due).toEqual({ ...RUN, leaseRenewedAt: T0 });
  });

  it.each([
    { name: 'a time never set', state: RUN, expected: undefined },
    {
      name: 'a time due next',
      state: dueNext(doneAt(RUN, 'controlReadAt', T0), 'controlReadAt'),
      expected: undefined,
    },
    { name: 'a time set 1.5 s before', state: doneAt(RUN, 'controlReadAt', T0 - 1500), expected: 1500 },
  ])('reads $expected ms since $name', ({ state, expected }) => {
    // Act
    const since = msSince(state, 'controlReadAt', T0);

    // Assert
    expect(since).toBe(expected);
  });
});
