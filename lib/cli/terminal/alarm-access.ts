/**
 * `-stop-on-alarm` at a terminal: the run reads CloudWatch with this machine's AWS credentials and
 * region (the SDK's default chain: `AWS_PROFILE`, `AWS_ACCESS_KEY_ID`…, `AWS_REGION`), and needs
 * `cloudwatch:DescribeAlarms` only. Every alarm is read once here, before anything is touched: no
 * credentials, no region, a denied call or an alarm that does not exist refuse the run with a line
 * that says which, instead of a run that would stop at its first batch (or, worse, go on unwatched).
 */
import { AlarmAccessError, AlarmNotFoundError } from '../../alarms/errors';
import { retryTransient } from '../../engines/aws/aws-call';
import { isAccessDeniedCode } from '../../engines/aws/errors';
import { type AlarmReader, alarmNamesOf } from '../../restart/alarms';
import { awsSdkClient, TERMINAL_AWS_TIMEOUTS } from '../../stores/aws-client-config';
import { awsErrorCode } from '../../stores/aws-errors';

/** The start of every refusal: what could not be done. */
const CANNOT = 'Error reading the CloudWatch alarms of -stop-on-alarm';

/** Injected (tests): the client to read with. @default - a CloudWatch client from the SDK's default chain */
export interface AlarmAccessOptions {
  readonly client?: import('@aws-sdk/client-cloudwatch').CloudWatchClient;
}

/**
 * The reader the run's steps use, once every alarm in `alarms` (names or ARNs) was read.
 * @throws AlarmNotFoundError naming the alarms CloudWatch does not hold; AlarmAccessError without
 *   credentials, a region, or `cloudwatch:DescribeAlarms`
 */
export async function terminalAlarmReader(
  alarms: readonly string[],
  options: AlarmAccessOptions = {},
): Promise<AlarmReader> {
  const [{ CloudWatchClient }, { CloudWatchAlarms }] = await Promise.all([
    import('@aws-sdk/client-cloudwatch'),
    import('../../alarms/cloudwatch-alarms'),
  ]);
  const client = options.client ?? awsSdkClient(CloudWatchClient, {}, TERMINAL_AWS_TIMEOUTS);
  try {
    await client.config.region();
  } catch {
    throw new AlarmAccessError(`${CANNOT}: no AWS region is set: set AWS_REGION (or a profile's region)`);
  }
  const reader = new CloudWatchAlarms(client);
  try {
    await retryTransient(() => reader.read(alarmNamesOf(alarms)), { retries: 2 });
  } catch (error) {
    if (error instanceof AlarmNotFoundError) throw error;
    throw new AlarmAccessError(refusal(error), { cause: error });
  }
  return reader;
}

/** Why the alarms could not be read, in the operator's terms, never with a secret. */
function refusal(error: unknown): string {
  const code = awsErrorCode(error);
  if (code === 'CredentialsProviderError') {
    return `${CANNOT}: no AWS credentials were found (set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); the identity needs cloudwatch:DescribeAlarms only`;
  }
  const message = error instanceof Error && error.message !== code ? `: ${error.message}` : '';
  const missing = isAccessDeniedCode(code) ? '; this needs the IAM action cloudwatch:DescribeAlarms' : '';
  return `${CANNOT}: ${code}${message}${missing}`;
}
