/**
 * Finds the jobs of a fleet run on AWS as they start and end: the Distributed Map's item executions
 * (`ListExecutions` with the map run's ARN), and in each item's history the job it restarts (its
 * input is the `ItemSelector`'s `{ options, item }`), the one-job execution it started (the
 * "Restart job" `.sync` task's `TaskSubmitted` output names it once `StartExecution` answered),
 * and the item's end, shaped as the ResultWriter records it so the summary's own decoder reads it.
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { FleetJobName } from '../../fleet/events';
import type { FleetJobItem } from '../../fleet/items';
import type { MapResultEntry } from '../../fleet/map-results';
import { HistoryFollower, type HistoryPageSizes } from './history-follower';
import type { SfnCalls } from './sfn-calls';

/** A job of the fleet whose one-job execution has started. */
export interface StartedFleetJob extends FleetJobName {
  /** Its place in the fleet's order, from 1, and the fleet's job count. */
  readonly index: number;
  readonly of: number;
  /** The one-job execution (followed as `nomad-restart attach` follows a run). */
  readonly executionArn: string;
}

const parse = (text: string | undefined): unknown => {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** What one poll of an item execution found. */
interface ItemNews {
  readonly started?: StartedFleetJob;
  /** The item's end, as the ResultWriter records it (`jobEndOf` reads it). */
  readonly ended?: MapResultEntry;
}

/** One item execution, read until it ended: the job it starts, its execution, its end. */
class ItemWatch {
  private input: string | undefined;
  private item: FleetJobItem | undefined;
  private readonly follower: HistoryFollower;

  public constructor(
    calls: SfnCalls,
    private readonly arn: string,
    sizes: HistoryPageSizes | undefined,
  ) {
    this.follower = new HistoryFollower(calls, arn, sizes);
  }

  public async poll(): Promise<ItemNews> {
    let news: ItemNews = {};
    for (const event of await this.follower.poll()) news = { ...news, ...this.apply(event) };
    return news;
  }

  private apply(event: HistoryEvent): ItemNews {
    switch (event.type) {
      case 'ExecutionStarted': {
        this.input = event.executionStartedEventDetails?.input;
        this.item = (parse(this.input) as { item?: FleetJobItem } | undefined)?.item;
        return {};
      }
      case 'TaskSubmitted': {
        const out = parse(event.taskSubmittedEventDetails?.output) as { ExecutionArn?: unknown } | undefined;
        if (this.item === undefined || typeof out?.ExecutionArn !== 'string') return {};
        const { job, namespace, fleet } = this.item.input;
        return {
          started: { job, namespace, index: fleet.index, of: fleet.of, executionArn: out.ExecutionArn },
        };
      }
      case 'ExecutionSucceeded':
        return this.end('SUCCEEDED', { Output: event.executionSucceededEventDetails?.output });
      case 'ExecutionFailed':
        return this.end('FAILED', event.executionFailedEventDetails ?? {});
      case 'ExecutionAborted':
        return this.end('ABORTED', event.executionAbortedEventDetails ?? {});
      case 'ExecutionTimedOut':
        return this.end('TIMED_OUT', event.executionTimedOutEventDetails ?? {});
      default:
        return {};
    }
  }

  private end(
    Status: string,
    details: { Output?: string | undefined; error?: string | undefined; cause?: string | undefined },
  ): ItemNews {
    return {
      ended: {
        ExecutionArn: this.arn,
        Status,
        ...(this.input === undefined ? {} : { Input: this.input }),
        ...(details.Output === undefined ? {} : { Output: details.Output }),
        ...(details.error === undefined ? {} : { Error: details.error }),
        ...(details.cause === undefined ? {} : { Cause: details.cause }),
      },
    };
  }
}

/** Every job of one map run: each reported once as its execution starts, and once as its item ends. */
export class FleetJobFinder {
  private readonly watches = new Map<string, ItemWatch | 'ended'>();

  public constructor(
    private readonly calls: SfnCalls,
    private readonly mapRunArn: string,
    private readonly sizes?: HistoryPageSizes,
  ) {}

  /** The jobs whose execution started, and the items that ended, since the last call. */
  public async poll(): Promise<{ started: StartedFleetJob[]; ended: MapResultEntry[] }> {
    let token: string | undefined;
    do {
      const page = await this.calls.mapRunExecutions(this.mapRunArn, token);
      for (const arn of page.arns)
        if (!this.watches.has(arn)) this.watches.set(arn, new ItemWatch(this.calls, arn, this.sizes));
      token = page.nextToken;
    } while (token !== undefined);
    const started: StartedFleetJob[] = [];
    const ended: MapResultEntry[] = [];
    for (const [arn, watch] of this.watches) {
      if (watch === 'ended') continue;
      const news = await watch.poll();
      if (news.started !== undefined) started.push(news.started);
      if (news.ended === undefined) continue;
      this.watches.set(arn, 'ended');
      ended.push(news.ended);
    }
    return { started, ended };
  }
}
