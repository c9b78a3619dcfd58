/** Small ASL builders for the local engine's tests. */

/** Placeholder ARN of a function, as `extractStateMachineDefinition` renders `Fn::GetAtt [Id, Arn]`. */
export const fnArn = (logicalId: string): string => `arn:aws:lambda:local:000000000000:function:${logicalId}`;

/** A `lambda:invoke` Task state with `Payload.$: '$'`. */
export function lambdaTask(
  functionLogicalId: string,
  rest: Record<string, unknown>,
): Record<string, unknown> {
  return {
    Type: 'Task',
    Resource: 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: fnArn(functionLogicalId), 'Payload.$': '$' },
    ...rest,
  };
}

/** An error with a given `name`, as a Lambda handler would throw it. */
export function namedError(name: string, message: string, cause?: unknown): Error {
  const error = new Error(message, cause === undefined ? undefined : { cause });
  error.name = name;
  return error;
}
