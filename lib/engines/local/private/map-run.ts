/**
 * One run of a Distributed Map state (a "Map Run"), with Step Functions' semantics: items read
 * from the plan store (`ItemReader`) or the input, each item's input built by `ItemSelector`, at
 * most `MaxConcurrency` item executions at once (0: no limit), the run failed with
 * `States.ExceedToleratedFailureThreshold` once failed items pass `ToleratedFailureCount` or
 * `ToleratedFailurePercentage` (no further item starts, the running ones are stopped), and
 * results written by `ResultWriter`.
 * (https://docs.aws.amazon.com/step-functions/latest/dg/state-map-distributed.html)
 */
import { randomUUID } from 'node:crypto';
import type { ExecutionSummary, LocalObjectStore } from '../types';
import type { DistributedMapSpec, MapRunParameters } from './distributed-map-spec';
import { itemSelector, limitOf, readItems } from './map-items';
import { LOCAL_ACCOUNT, LOCAL_PARTITION, LOCAL_REGION } from './placeholders';
import { type ItemExecutionRecord, type PendingItemRecord, writeResults } from './result-writer';
import { EngineRuntimeFailure, TaskFailure } from './task-failures';

/** One item execution's end, as the map run records it. */
export interface ItemExecutionEnd extends ExecutionSummary {
  readonly startDate: number;
  readonly stopDate: number;
}

/** What a map run needs from the execution running it. */
export interface MapRunDeps {
  /** `$$.StateMachine.Id` of the parent: the map run's ARN and its children's name it. */
  readonly stateMachineArn: string;
  readonly store?: LocalObjectStore;
  /** Runs the item processor once, as a child execution named `name`; settles when it ends. */
  readonly runItem: (item: {
    input: unknown;
    name: string;
    arn: string;
    index: number;
    mapRunArn: string;
    signal: AbortSignal;
  }) => Promise<ItemExecutionEnd>;
  /** Aborted when the parent execution is. */
  readonly signal: AbortSignal;
}

const iso = (ms: number) => new Date(ms).toISOString();

function recordOf(end: ItemExecutionEnd, input: unknown, stateMachineArn: string): ItemExecutionRecord {
  const status = end.status === 'FAILED' && end.error === 'States.Timeout' ? 'TIMED_OUT' : end.status;
  return {
    ExecutionArn: end.executionArn,
    Input: JSON.stringify(input),
    InputDetails: { Included: true },
    Name: end.name,
    ...(end.status === 'SUCCEEDED'
      ? { Output: JSON.stringify(end.output ?? null), OutputDetails: { Included: true } }
      : {}),
    ...(end.error === undefined ? {} : { Error: end.error }),
    ...(end.cause === undefined ? {} : { Cause: end.cause }),
    RedriveCount: 0,
    RedriveStatus: 'NOT_REDRIVABLE',
    RedriveStatusReason: 'Execution is SUCCEEDED and cannot be redriven',
    StartDate: iso(end.startDate),
    StateMachineArn: stateMachineArn,
    Status: status,
    StopDate: iso(end.stopDate),
  };
}

/**
 * Runs the map run of a rewritten Distributed Map state and returns the state's result: the
 * ResultWriter's `{MapRunArn, ResultWriterDetails}`, or the items' outputs when it has none.
 * @throws TaskFailure `States.ExceedToleratedFailureThreshold` past the tolerated failures (the
 *   results are written first, as on AWS), `States.ItemReaderFailed` when the items cannot be read
 */
export async function runMapRun(
  spec: DistributedMapSpec,
  parameters: MapRunParameters,
  deps: MapRunDeps,
): Promise<unknown> {
  const maxConcurrency = limitOf('MaxConcurrency', parameters.maxConcurrency, spec.maxConcurrency) ?? 0;
  const toleratedCount = limitOf(
    'ToleratedFailureCount',
    parameters.toleratedFailureCount,
    spec.toleratedFailureCount,
  );
  const toleratedPercentage = limitOf(
    'ToleratedFailurePercentage',
    parameters.toleratedFailurePercentage,
    spec.toleratedFailurePercentage,
    100,
  );
  if (spec.resultWriter !== undefined && deps.store === undefined)
    throw new EngineRuntimeFailure(
      `Distributed Map "${spec.stateName}" writes results to S3 but the run was given no objectStore`,
    );
  const items = await readItems(spec, parameters, deps.store);
  const select = itemSelector(spec, parameters.input);
  const machineName = `${deps.stateMachineArn.split(':').at(-1) ?? 'local'}/${spec.label}`;
  const mapRunArn = `arn:${LOCAL_PARTITION}:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:mapRun:${machineName}:${randomUUID()}`;
  const childMachineArn = `arn:${LOCAL_PARTITION}:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${machineName}`;
  // Failures past either threshold fail the run; with neither declared, none is tolerated.
  const exceeded = (failed: number) =>
    (toleratedCount === undefined && toleratedPercentage === undefined && failed > 0) ||
    (toleratedCount !== undefined && failed > toleratedCount) ||
    (toleratedPercentage !== undefined && (failed / items.length) * 100 > toleratedPercentage);

  const stop = new AbortController();
  const stopAll = () => stop.abort();
  deps.signal.addEventListener('abort', stopAll, { once: true });
  const records: (ItemExecutionRecord | undefined)[] = new Array(items.length);
  let failed = 0;
  let failedRun = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let running = 0;
      const startMore = () => {
        while (
          !failedRun &&
          !stop.signal.aborted &&
          next < items.length &&
          (maxConcurrency === 0 || running < maxConcurrency)
        ) {
          const index = next++;
          running += 1;
          runOne(index).then(
            (record) => {
              running -= 1;
              records[index] = record;
              if (record.Status !== 'SUCCEEDED' && !failedRun) {
                failed += 1;
                if (exceeded(failed)) {
                  failedRun = true;
                  stop.abort();
                }
              }
              startMore();
            },
            (error: unknown) => {
              failedRun = true;
              stop.abort();
              reject(error);
            },
          );
        }
        if (running === 0) resolve();
      };
      startMore();
    });
  } finally {
    deps.signal.removeEventListener('abort', stopAll);
  }

  async function runOne(index: number): Promise<ItemExecutionRecord> {
    const input = await select(items[index], index);
    const name = randomUUID();
    const arn = `arn:${LOCAL_PARTITION}:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:${machineName}:${name}`;
    const end = await deps.runItem({ input, name, arn, index, mapRunArn, signal: stop.signal });
    return recordOf(end, input, childMachineArn);
  }

  const executions = records.filter((r): r is ItemExecutionRecord => r !== undefined);
  const pending: PendingItemRecord[] = [];
  for (let i = 0; i < items.length; i++) {
    // Never started, so never selected: the item as read.
    if (records[i] === undefined) pending.push({ Input: JSON.stringify(items[i]), Status: 'PENDING' });
  }
  const result =
    spec.resultWriter === undefined || deps.store === undefined
      ? executions.map((r) =>
          r.Output === undefined ? { Error: r.Error, Cause: r.Cause } : (JSON.parse(r.Output) as unknown),
        )
      : await writeResults(deps.store, parameters.writer, mapRunArn, { executions, pending });
  if (failedRun) {
    // The error is Step Functions'; the cause's wording is ours (the counts a reader needs).
    throw new TaskFailure(
      'States.ExceedToleratedFailureThreshold',
      `The Map Run ${mapRunArn} failed: ${failed} of ${items.length} items failed, over the tolerated ${toleratedCount ?? 0} failed items${toleratedPercentage === undefined ? '' : ` or ${toleratedPercentage}%`}; ${pending.length} items were not started`,
    );
  }
  return result;
}
