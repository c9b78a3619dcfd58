/**
 * CloudWatch's `DescribeAlarms` on 127.0.0.1 for the real SDK client (an endpoint override, or
 * `AWS_ENDPOINT_URL_CLOUDWATCH`): the client speaks the AWS JSON 1.0 protocol to CloudWatch
 * (`X-Amz-Target: GraniteServiceVersion20100801.DescribeAlarms`, timestamps in epoch seconds).
 * Alarms are switched between states by the test; every call's names are kept.
 */
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudWatchAlarms } from '../../../lib/alarms/cloudwatch-alarms';
import { awsSdkClient } from '../../../lib/stores/aws-client-config';
import { type FakeJsonServices, startFakeJsonServices } from '../../iam/helpers/fake-json-services';

/** One alarm as the fake holds it. */
interface FakeAlarm {
  state: 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';
  reason: string;
  /** Unix ms. */
  since: number;
}

const TARGET = 'GraniteServiceVersion20100801.DescribeAlarms';

/** A CloudWatch holding the alarms the test sets. */
export class FakeCloudWatch {
  private readonly alarms = new Map<string, FakeAlarm>();
  /** The `AlarmNames` of each call, in order. */
  public readonly calls: string[][] = [];

  /** Creates or switches alarm `name`. */
  public set(name: string, state: FakeAlarm['state'], reason: string, since = Date.now()): void {
    this.alarms.set(name, { state, reason, since });
  }

  /** `DescribeAlarms` by `AlarmNames` (the only form the reader sends). */
  public describeAlarms(input: Readonly<Record<string, unknown>>): unknown {
    const names = (input['AlarmNames'] as string[] | undefined) ?? [];
    this.calls.push(names);
    const MetricAlarms = names.flatMap((name) => {
      const alarm = this.alarms.get(name);
      return alarm === undefined
        ? []
        : [
            {
              AlarmName: name,
              AlarmArn: `arn:aws:cloudwatch:us-east-1:123456789012:alarm:${name}`,
              StateValue: alarm.state,
              StateReason: alarm.reason,
              StateUpdatedTimestamp: alarm.since / 1000,
            },
          ];
    });
    return { MetricAlarms, CompositeAlarms: [] };
  }
}

/** A served fake, and the SDK client and reader pointed at it. */
export interface ServedCloudWatch {
  readonly fake: FakeCloudWatch;
  readonly endpoint: FakeJsonServices;
  readonly client: CloudWatchClient;
  readonly reader: CloudWatchAlarms;
  close(): Promise<void>;
}

/** Serves a new {@link FakeCloudWatch} on 127.0.0.1. */
export async function startFakeCloudWatch(): Promise<ServedCloudWatch> {
  const fake = new FakeCloudWatch();
  const endpoint = await startFakeJsonServices({ [TARGET]: (input) => fake.describeAlarms(input) });
  const client = awsSdkClient(CloudWatchClient, {
    region: 'us-east-1',
    endpoint: endpoint.url,
    credentials: { accessKeyId: 'FAKE', secretAccessKey: 'FAKE' },
  });
  return {
    fake,
    endpoint,
    client,
    reader: new CloudWatchAlarms(client),
    async close() {
      client.destroy();
      await endpoint.close();
    },
  };
}
