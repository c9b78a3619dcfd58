/**
 * Placeholder values that stand in for deploy-time values when a synthesized template is read
 * locally. They are valid ARNs (so `asl-validator` accepts them) and name the resource's
 * logical id, so a Task state can be traced back to the resource it calls.
 */

/** `Ref: AWS::Partition`. */
export const LOCAL_PARTITION = 'aws';
/** `Ref: AWS::Region`; not a real region, so a placeholder can never be mistaken for a deployment. */
export const LOCAL_REGION = 'local';
/** `Ref: AWS::AccountId`. */
export const LOCAL_ACCOUNT = '000000000000';

const LAMBDA_ARN = /^arn:[^:]+:lambda:[^:]*:[^:]*:function:([A-Za-z0-9_-]+)(?::[^:]+)?$/;
const BARE_FUNCTION_NAME = /^[A-Za-z0-9_-]+$/;

/** The placeholder ARN of a resource the definition names: a function, the state machine, or another. */
export function placeholderArn(logicalId: string, type: string | undefined): string {
  const local = `${LOCAL_REGION}:${LOCAL_ACCOUNT}`;
  switch (type) {
    case 'AWS::Lambda::Function':
      return `arn:${LOCAL_PARTITION}:lambda:${local}:function:${logicalId}`;
    case 'AWS::StepFunctions::StateMachine':
      return stateMachineArn(logicalId);
    default:
      return `arn:${LOCAL_PARTITION}:cloudformation:${local}:resource/${logicalId}`;
  }
}

/** The ARN of a state machine called `name` in the local placeholder account. */
export function stateMachineArn(name: string): string {
  return `arn:${LOCAL_PARTITION}:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${name}`;
}

/** The ARN of execution `executionName` of the state machine `stateMachine` (an ARN). */
export function executionArn(stateMachine: string, executionName: string): string {
  const machineName = stateMachine.split(':').at(-1) ?? 'local';
  return `arn:${LOCAL_PARTITION}:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:${machineName}:${executionName}`;
}

/**
 * The function name inside a Lambda ARN or bare function name, which for placeholders is the
 * function's logical id. `undefined` for anything else (a path, a token, a non-Lambda ARN).
 */
export function functionNameOf(arnOrName: string): string | undefined {
  const match = LAMBDA_ARN.exec(arnOrName);
  if (match) return match[1];
  return BARE_FUNCTION_NAME.test(arnOrName) ? arnOrName : undefined;
}
