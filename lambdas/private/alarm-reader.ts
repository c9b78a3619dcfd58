/**
 * The `-stop-on-alarm` reader for one invocation. A local run hands the command's reader on the
 * context (its CloudWatch client, made with the terminal's credentials and region); on AWS it is a
 * CloudWatch client in the function's region, with the function's role. The SDK is loaded on the
 * first read only: a run that watches no alarm never loads it.
 */
import type { Context } from 'aws-lambda';
import type { AlarmReader } from '../../lib/restart/alarms';
import { alarmReaderOf as localAlarmReader } from '../../lib/steps/kit/local-invocation';

let cached: Promise<AlarmReader> | undefined;

async function functionReader(): Promise<AlarmReader> {
  const [{ CloudWatchClient }, { CloudWatchAlarms }, { awsSdkClient }] = await Promise.all([
    import('@aws-sdk/client-cloudwatch'),
    import('../../lib/alarms/cloudwatch-alarms'),
    import('../../lib/stores/aws-client-config'),
  ]);
  return new CloudWatchAlarms(awsSdkClient(CloudWatchClient, {}));
}

/** The reader for this invocation. */
export function alarmReaderOf(context: Context): AlarmReader {
  const given = localAlarmReader(context);
  if (given !== undefined) return given;
  return {
    read: async (names, signal) => {
      cached ??= functionReader();
      return (await cached).read(names, signal);
    },
  };
}
