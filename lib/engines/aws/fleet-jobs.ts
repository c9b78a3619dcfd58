/**
 * Finds the jobs of a fleet run on AWS as they start: the Distributed Map's item executions
 * (`ListExecutions` with the map run's ARN), and in each item's history the job it restarts (its
 * input is the `ItemSelector`'s `{ options, item }`) and the one-job execution it started (the
 * "Restart job" `.sync` task's `TaskSubmitted` output names it once `StartExecution` answered).
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { FleetJobName } from '../../fleet/events';
import type { FleetJobItem } from '../../fleet/items';
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

/** One item execution, read until its job's execution is known. */
class ItemWatch {
  private item: FleetJobItem | undefined;
  private readonly follower: HistoryFollower;

  public constructor(calls: SfnCalls, arn: string, sizes: HistoryPageSizes | undefined) {
    this.follower = new HistoryFollower(calls, arn, sizes);
  }

  /** The started job, once the item's history says which execution it started. */
  public async poll(): Promise<StartedFleetJob | undefined> {
    for (const event of await this.follower.poll()) {
      const started = this.apply(event);
      if (started !== undefined) return started;
    }
    return undefined;
  }

  private apply(event: HistoryEvent): StartedFleetJob | undefined {
    if (event.type === 'ExecutionStarted') {
      const input = parse(event.executionStartedEventDetails?.input) as { item?: FleetJobItem } | undefined;
      this.item = input?.item;
      return undefined;
    }
    if (event.type !== 'TaskSubmitted' || this.item === undefined) return undefined;
    const out = parse(event.taskSubmittedEventDetails?.output) as { ExecutionArn?: unknown } | undefined;
    if (typeof out?.ExecutionArn !== 'string') return undefined;
    const { job, namespace, fleet } = this.item.input;
    return { job, namespace, index: fleet.index, of: fleet.of, executionArn: out.ExecutionArn };
  }
}

/** Every job of one map run, each reported once, as its execution starts. */
export class FleetJobFinder {
  private readonly watches = new Map<string, ItemWatch | 'found'>();

  public constructor(
    private readonly calls: SfnCalls,
    private readonly mapRunArn: string,
    private readonly sizes?: HistoryPageSizes,
  ) {}

  /** The jobs whose execution started since the last call. */
  public async poll(): Promise<StartedFleetJob[]> {
    let token: string | undefined;
    do {
      const page = await this.calls.mapRunExecutions(this.mapRunArn, token);
      for (const arn of page.arns)
        if (!this.watches.has(arn)) this.watches.set(arn, new ItemWatch(this.calls, arn, this.sizes));
      token = page.nextToken;
    } while (token !== undefined);
    const started: StartedFleetJob[] = [];
    for (const [arn, watch] of this.watches) {
      if (watch === 'found') continue;
      const job = await watch.poll();
      if (job === undefined) continue;
      this.watches.set(arn, 'found');
      started.push(job);
    }
    return started;
  }
}
