/**
 * The `-stop-on-alarm` reader over CloudWatch's `DescribeAlarms`, by `AlarmNames`, at most 100 a
 * call (the API's limit). Metric and composite alarms are both asked for: without `AlarmTypes`
 * CloudWatch answers metric alarms only, and a composite alarm would read as missing.
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html
 */
import {
  type CloudWatchClient,
  type CompositeAlarm,
  DescribeAlarmsCommand,
  type MetricAlarm,
} from '@aws-sdk/client-cloudwatch';
import type { AlarmReader, AlarmReading } from '../restart/alarms';
import { AlarmNotFoundError } from './errors';

/** `AlarmNames` takes at most this many names per call. */
export const DESCRIBE_ALARMS_MAX_NAMES = 100;

type Alarm = MetricAlarm | CompositeAlarm;

function readingOf(alarm: Alarm): AlarmReading {
  return {
    name: alarm.AlarmName ?? '',
    state: alarm.StateValue ?? 'INSUFFICIENT_DATA',
    reason: alarm.StateReason ?? '',
    since: alarm.StateUpdatedTimestamp?.getTime() ?? 0,
  };
}

/** Reads alarms through `client` (made with `awsSdkClient`, in the run's AWS region). */
export class CloudWatchAlarms implements AlarmReader {
  public constructor(private readonly client: CloudWatchClient) {}

  /**
   * The alarms named, in the order asked.
   * @throws AlarmNotFoundError naming every alarm CloudWatch does not hold
   */
  public async read(names: readonly string[], signal?: AbortSignal): Promise<AlarmReading[]> {
    const found = new Map<string, AlarmReading>();
    for (let i = 0; i < names.length; i += DESCRIBE_ALARMS_MAX_NAMES) {
      for (const alarm of await this.page(names.slice(i, i + DESCRIBE_ALARMS_MAX_NAMES), signal)) {
        found.set(alarm.name, alarm);
      }
    }
    const missing = names.filter((name) => !found.has(name));
    if (missing.length > 0) throw new AlarmNotFoundError(missing, await this.region());
    return names.map((name) => found.get(name) as AlarmReading);
  }

  /** One call's alarms, following `NextToken` (CloudWatch pages at 50 by default). */
  private async page(names: string[], signal: AbortSignal | undefined): Promise<AlarmReading[]> {
    const out: AlarmReading[] = [];
    let nextToken: string | undefined;
    do {
      const answer = await this.client.send(
        new DescribeAlarmsCommand({
          AlarmNames: names,
          AlarmTypes: ['MetricAlarm', 'CompositeAlarm'],
          ...(nextToken === undefined ? {} : { NextToken: nextToken }),
        }),
        signal === undefined ? {} : { abortSignal: signal },
      );
      out.push(...[...(answer.MetricAlarms ?? []), ...(answer.CompositeAlarms ?? [])].map(readingOf));
      nextToken = answer.NextToken;
    } while (nextToken !== undefined);
    return out;
  }

  private async region(): Promise<string | undefined> {
    try {
      return await this.client.config.region();
    } catch {
      return undefined;
    }
  }
}
