/**
 * What a Lambda step makes of its payload (redrive.ts): the state of an execution never redriven,
 * a named refusal for a redriven one, and the state itself when it comes unwrapped.
 */
import { ExecutionRedrivenError } from '../../lib/workflow/errors';
import { unwrapStepEvent } from '../../lib/workflow/redrive';

const STATE = { options: { job: 'web' }, run: { runId: 'arn:run' } };

describe('unwrapStepEvent', () => {
  it('hands over the state of an execution never redriven', () => {
    // Act
    const state = unwrapStepEvent({ state: STATE, redriveCount: 0 });

    // Assert
    expect(state).toBe(STATE);
  });

  it.each([1, 3])('refuses an execution redriven %i time(s), saying to start a new run', (redriveCount) => {
    // Act
    const unwrap = () => unwrapStepEvent({ state: STATE, redriveCount });

    // Assert
    expect(unwrap).toThrow(ExecutionRedrivenError);
    expect(unwrap).toThrow(/start a new run/);
  });

  it('takes an event without the wrapper as the state (a definition from before it)', () => {
    // Act
    const state = unwrapStepEvent(STATE);

    // Assert
    expect(state).toBe(STATE);
  });
});
