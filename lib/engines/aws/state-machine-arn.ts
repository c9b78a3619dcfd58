/**
 * The ARNs the command is given: `-state-machine-arn` (checked before any AWS call, and the
 * region it names) and the execution ARN `attach` takes; and the ARN of an execution started
 * under a known name (Step Functions derives it from the state machine's ARN and that name).
 */
import { goQuote } from '../../go/quote';
import { RemoteInputError } from './errors';

/** `arn:<partition>:states:<region>:<account>:stateMachine:<name>` (an optional `:<version or alias>` after the name). */
const STATE_MACHINE_ARN_RE =
  /^arn:(aws[a-zA-Z-]*):states:([a-z]{2}(?:-[a-z]+)+-\d+):(\d{12}):stateMachine:([A-Za-z0-9_-]{1,80})(?::[A-Za-z0-9_-]+)?$/;
/** `arn:<partition>:states:<region>:<account>:execution:<state machine>:<name>` (a Standard execution). */
const EXECUTION_ARN_RE =
  /^arn:(aws[a-zA-Z-]*):states:([a-z]{2}(?:-[a-z]+)+-\d+):(\d{12}):execution:([A-Za-z0-9_-]{1,80}):([^\s:]{1,80})$/;

/** The parts of a state machine ARN the engine uses. */
export interface StateMachineArn {
  readonly arn: string;
  readonly partition: string;
  readonly region: string;
  readonly account: string;
  readonly name: string;
}

/** The parts of an execution ARN the engine uses. */
export interface ExecutionArn {
  readonly arn: string;
  readonly partition: string;
  readonly region: string;
  readonly account: string;
  /** The name of the state machine it is an execution of. */
  readonly stateMachineName: string;
  /** The execution's own name. */
  readonly name: string;
}

/**
 * Parses a state machine ARN.
 * @throws RemoteInputError naming the flag, quoting the value and saying what is allowed
 */
export function parseStateMachineArn(value: string): StateMachineArn {
  const match = STATE_MACHINE_ARN_RE.exec(value);
  if (match === null) {
    throw new RemoteInputError(
      `Invalid -state-machine-arn value ${goQuote(value)}: expected arn:<partition>:states:<region>:<account>:stateMachine:<name>`,
    );
  }
  const [, partition = '', region = '', account = '', name = ''] = match;
  return { arn: value, partition, region, account, name };
}

/**
 * Parses the execution ARN given to `attach`.
 * @throws RemoteInputError quoting the value and saying what is allowed
 */
export function parseExecutionArn(value: string): ExecutionArn {
  const match = EXECUTION_ARN_RE.exec(value);
  if (match === null) {
    throw new RemoteInputError(
      `Invalid execution ARN ${goQuote(value)}: expected arn:<partition>:states:<region>:<account>:execution:<state machine>:<name>`,
    );
  }
  const [, partition = '', region = '', account = '', stateMachineName = '', name = ''] = match;
  return { arn: value, partition, region, account, stateMachineName, name };
}

/**
 * The ARN of the execution named `name` of a state machine (a version or alias qualifier plays
 * no part: executions are named under the state machine itself).
 */
export function executionArnOf(
  machine: Pick<StateMachineArn, 'partition' | 'region' | 'account' | 'name'>,
  name: string,
): string {
  return `arn:${machine.partition}:states:${machine.region}:${machine.account}:execution:${machine.name}:${name}`;
}
