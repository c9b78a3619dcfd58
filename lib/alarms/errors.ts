/**
 * Errors of reading `-stop-on-alarm` alarms. Each class's `name` is stable (Step Functions `Catch`
 * and the command's messages match on it).
 */
import { NamedError } from '../errors/named-error';
import { goQuote } from '../go/quote';

/**
 * An alarm the run was told to watch that CloudWatch does not hold (in this account and region):
 * a run must not go on believing it is guarded by an alarm nobody reads.
 */
export class AlarmNotFoundError extends NamedError {
  /** The names CloudWatch did not answer for. */
  public readonly names: readonly string[];

  public constructor(names: readonly string[], region: string | undefined) {
    const where = region === undefined ? '' : ` in region ${goQuote(region)}`;
    super(
      `${names.length === 1 ? 'Alarm' : 'Alarms'} ${names.map(goQuote).join(', ')} of -stop-on-alarm ${names.length === 1 ? 'does' : 'do'} not exist${where}: check the name (or ARN) and the region (AWS_REGION)`,
    );
    this.names = names;
  }
}

/**
 * The alarms could not be read before anything was touched: no AWS credentials, or an identity
 * without `cloudwatch:DescribeAlarms`. The message says which, without any secret.
 */
export class AlarmAccessError extends NamedError {}
