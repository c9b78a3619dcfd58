/**
 * Distributed Map results in the layout AWS's ResultWriter writes (the `NONE` transformation of
 * https://docs.aws.amazon.com/step-functions/latest/dg/input-output-resultwriter.html): a manifest
 * listing result files by status, each file a JSON array of item executions whose `Input` and
 * `Output` are JSON strings. The item input is what the fleet's `ItemSelector` hands each item:
 * `{options, item}`.
 */
import type { FleetJobItem } from '../../../lib/fleet/items';
import type { MapResultEntry } from '../../../lib/fleet/map-results';

export const RUN_ID = 'fleet-weekly-2026-12-07';
export const MAP_RUN_ID = 'ad9b5f27-090b-3ac6-9beb-243cd77144a7';
const REGION_ACCOUNT = 'us-east-2:123456789012';
const FLEET_MACHINE = `arn:aws:states:${REGION_ACCOUNT}:stateMachine:NomadFleetRestart`;
const JOB_MACHINE = `arn:aws:states:${REGION_ACCOUNT}:stateMachine:NomadRestart`;

/** The item of job `job` in `namespace`, `index` of `of`, with `allocations` in scope. */
export function item(
  namespace: string,
  job: string,
  index: number,
  of: number,
  allocations = 4,
): FleetJobItem {
  return {
    input: { job, namespace, fleet: { runId: RUN_ID, index, of } },
    executionName: `${RUN_ID}-${index}`,
    allocations,
  };
}

/** The one-job execution a fleet item started. */
export const childArn = (it: FleetJobItem) =>
  `arn:aws:states:${REGION_ACCOUNT}:execution:NomadRestart:${it.executionName}`;

/** The fields AWS writes for every item execution, whatever its status. */
function entryBase(it: FleetJobItem, status: string) {
  return {
    ExecutionArn: `arn:aws:states:${REGION_ACCOUNT}:execution:NomadFleetRestart/Restart jobs:${MAP_RUN_ID}:${it.executionName}`,
    Input: JSON.stringify({ options: { batchSize: '1' }, item: it }),
    InputDetails: { Included: true },
    Name: it.executionName,
    RedriveCount: 0,
    RedriveStatus: 'NOT_REDRIVABLE',
    StartDate: '2026-12-07T02:00:00.000Z',
    StateMachineArn: FLEET_MACHINE,
    Status: status,
    StopDate: '2026-12-07T02:03:00.000Z',
  };
}

/** A one-job summary as "Finish restart" returns it (the fields the fleet reads). */
export function runSummary(outcome: string, extra: Record<string, unknown> = {}) {
  return {
    outcome,
    restarted: 4,
    failed: 0,
    allocations: {
      mode: 'restart',
      planned: 4,
      restarted: 4,
      rescheduled: 0,
      failed: 0,
      notReached: 0,
      skipped: {},
    },
    lockedBy: null,
    ...extra,
  };
}

/** A succeeded item: "Restart job"'s output around the child's output. */
export function succeeded(it: FleetJobItem, output: unknown) {
  return {
    ...entryBase(it, 'SUCCEEDED'),
    Output: JSON.stringify({
      job: it.input.job,
      namespace: it.input.namespace,
      fleet: it.input.fleet,
      executionArn: childArn(it),
      output,
    }),
    OutputDetails: { Included: true },
  };
}

/**
 * A failed item: the item processor's Fail state "Job failed" (error `JobFailed`), its cause the
 * failed child as the `.sync` task's DescribeExecution describes it.
 */
export function failed(it: FleetJobItem, childError: string, childCause: string, status = 'FAILED') {
  return {
    ...entryBase(it, status),
    Error: 'JobFailed',
    Cause: JSON.stringify({
      ExecutionArn: childArn(it),
      StateMachineArn: JOB_MACHINE,
      Name: it.executionName,
      Status: 'FAILED',
      Error: childError,
      Cause: childCause,
    }),
  };
}

/** The `Cause` a Lambda error leaves (`{"errorType","errorMessage","trace"}`). */
export const lambdaCause = (errorType: string, errorMessage: string) =>
  JSON.stringify({ errorType, errorMessage, trace: [`${errorType}: ${errorMessage}`, '    at handler'] });

/** The entries, as the summary decodes them (unknown fields dropped). */
export const asEntries = (entries: readonly object[]) => entries as unknown as MapResultEntry[];

/** The manifest and result files, keyed as the ResultWriter writes them under `prefix`. */
export function resultDocuments(
  prefix: string,
  files: { SUCCEEDED?: readonly object[][]; FAILED?: readonly object[][]; PENDING?: readonly object[][] },
) {
  const documents = new Map<string, unknown>();
  const dir = `${prefix}/${MAP_RUN_ID}`;
  const refs = (status: 'SUCCEEDED' | 'FAILED' | 'PENDING') =>
    (files[status] ?? []).map((content, i) => {
      const Key = `${dir}/${status}_${i}.json`;
      documents.set(Key, content);
      return { Key, Size: JSON.stringify(content).length };
    });
  const manifestKey = `${dir}/manifest.json`;
  documents.set(manifestKey, {
    DestinationBucket: 'nomad-restart-plans',
    MapRunArn: `arn:aws:states:${REGION_ACCOUNT}:mapRun:NomadFleetRestart/Restart jobs:${MAP_RUN_ID}`,
    ResultFiles: { FAILED: refs('FAILED'), PENDING: refs('PENDING'), SUCCEEDED: refs('SUCCEEDED') },
  });
  const mapResult = {
    MapRunArn: `arn:aws:states:${REGION_ACCOUNT}:mapRun:NomadFleetRestart/Restart jobs:${MAP_RUN_ID}`,
    ResultWriterDetails: { Bucket: 'nomad-restart-plans', Key: manifestKey },
  };
  return { documents, manifestKey, mapResult };
}
