/**
 * `-stop-on-alarm` checked once at the start of a run the terminal did not start (the console, a
 * schedule, `-engine=aws`, a fleet): every alarm is read in one `DescribeAlarms` call of up to 100
 * names, and one CloudWatch does not hold refuses the run as bad input, before anything is planned
 * or locked. Without this check the run would fail only at its first safe point, after the lock
 * was taken. The terminal makes the same check with its own credentials
 * (lib/cli/terminal/alarm-access.ts), in the same words.
 */
import { AlarmAccessError, AlarmNotFoundError } from '../../alarms/errors';
import { type AlarmReader, alarmNamesOf } from '../../restart/alarms';
import { InvalidInputError } from '../../workflow/errors';

/**
 * Reads every alarm of `alarms` (names or ARNs) once with `reader`; nothing without alarms.
 * @throws AlarmAccessError when alarms are given but no reader is (never skipped silently); InvalidInputError with the {@link AlarmNotFoundError} message naming each alarm
 *   CloudWatch does not hold; the SDK's errors (a denied call, a throttle) as they come, so the
 *   Task fails and retries as for any AWS error rather than calling a name "bad input"
 */
export async function refuseMissingAlarms(
  reader: AlarmReader | undefined,
  alarms: readonly string[] | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (alarms === undefined || alarms.length === 0) return;
  if (reader === undefined) {
    throw new AlarmAccessError('-stop-on-alarm is set but no CloudWatch client is configured');
  }
  try {
    await reader.read(alarmNamesOf(alarms), signal);
  } catch (err) {
    if (err instanceof AlarmNotFoundError) throw new InvalidInputError(err.message, { cause: err });
    throw err;
  }
}
