/** The `-state-machine-arn` value: checked before any AWS call, and the region it names. */
import { goQuote } from '../../restart/go-quote';
import { RemoteInputError } from './errors';

/** `arn:<partition>:states:<region>:<account>:stateMachine:<name>` (an optional `:<version or alias>` after the name). */
const STATE_MACHINE_ARN_RE =
  /^arn:(aws[a-zA-Z-]*):states:([a-z]{2}(?:-[a-z]+)+-\d+):(\d{12}):stateMachine:([A-Za-z0-9_-]{1,80})(?::[A-Za-z0-9_-]+)?$/;

/** The parts of a state machine ARN the engine uses. */
export interface StateMachineArn {
  readonly arn: string;
  readonly partition: string;
  readonly region: string;
  readonly account: string;
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
