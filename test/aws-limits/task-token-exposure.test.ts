/**
 * What docs/operating-on-aws.md says about task tokens ("Who can answer a question"), read from
 * the synthesized template: "Ask question" sends its token in the Lambda payload, which Step
 * Functions records in the execution history, and the state machine's own logs leave execution
 * data out, so the history is the one place a pending token shows.
 */
import { cachedStack } from './helpers/cached-stack';

type Resource = { Type: string; Properties: Record<string, unknown> };

const stack = await cachedStack();

describe('the task token of a question', () => {
  it('travels in the Ask question payload, which the execution history records', () => {
    // Arrange
    const states = stack.stateMachine.definition['States'] as Record<string, Record<string, unknown>>;

    // Act
    const parameters = states['Ask question']?.['Parameters'] as { Payload?: Record<string, unknown> };

    // Assert
    expect(parameters.Payload?.['taskToken.$']).toBe('$$.Task.Token');
  });

  it('stays out of the state machine log group: execution data is not logged', () => {
    // Arrange
    const resources = Object.values(stack.template['Resources'] as Record<string, Resource>);

    // Act
    const machine = resources.find((r) => r.Type === 'AWS::StepFunctions::StateMachine');

    // Assert
    expect(machine?.Properties['LoggingConfiguration']).toMatchObject({ IncludeExecutionData: false });
  });
});
