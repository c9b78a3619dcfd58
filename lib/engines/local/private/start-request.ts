/**
 * A `states:startExecution` Task's resolved `Parameters`, decoded once for both ways the engine
 * starts an execution: continue-as-new (fire and forget) and a `.sync` child.
 */
import { EngineRuntimeFailure, TaskFailure } from './task-failures';

/** What a start asks for: the state machine, the input (decoded when given as a JSON string), the name if any. */
export interface StartRequest {
  readonly arn: string;
  readonly name?: string;
  readonly input: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Decodes `StateMachineArn`, `Input` and `Name`. A string `Input` that is not JSON fails the Task
 * as StartExecution does (`StepFunctions.InvalidExecutionInputException`); a missing ARN is a
 * definition the engine cannot run.
 */
export function startRequestOf(parameters: unknown): StartRequest {
  if (!isRecord(parameters) || typeof parameters['StateMachineArn'] !== 'string') {
    throw new EngineRuntimeFailure('states:startExecution needs a string StateMachineArn parameter');
  }
  const raw = parameters['Input'];
  let input: unknown = raw ?? {};
  if (typeof raw === 'string') {
    try {
      input = JSON.parse(raw) as unknown;
    } catch {
      throw new TaskFailure(
        'StepFunctions.InvalidExecutionInputException',
        'Input is a string that is not JSON',
      );
    }
  }
  const name = parameters['Name'];
  return { arn: parameters['StateMachineArn'], input, ...(typeof name === 'string' ? { name } : {}) };
}
