/**
 * Checks Nomad's allocation answers against the fields the restart reads.
 */
import type { Allocation, AllocCheckStatuses, AllocListStub, AllocStopResponse } from '../types';
import {
  type DecodeContext,
  type JsonObject,
  listOf,
  object,
  oneOf,
  optArrayOf,
  optBooleans,
  optMapOf,
  optNumbers,
  optObject,
  optObjects,
  optStrings,
  reqNumber,
  reqString,
} from './decode';
import { checkJob } from './decode-job';

function checkTaskEvent(ctx: DecodeContext, e: JsonObject, at: string): void {
  reqString(ctx, e, 'Type', at);
  reqNumber(ctx, e, 'Time', at);
  optStrings(ctx, e, at, 'DisplayMessage', 'RestartReason', 'Message');
  optObjects(ctx, e, at, 'Details');
}

function checkTaskState(ctx: DecodeContext, s: JsonObject, at: string): void {
  reqString(ctx, s, 'State', at);
  optBooleans(ctx, s, at, 'Failed');
  optNumbers(ctx, s, at, 'Restarts');
  optStrings(ctx, s, at, 'LastRestart', 'StartedAt', 'FinishedAt');
  optArrayOf(ctx, s, 'Events', at, checkTaskEvent);
}

function checkAllocStub(ctx: DecodeContext, a: JsonObject, at: string): void {
  reqString(ctx, a, 'ID', at);
  reqString(ctx, a, 'JobID', at);
  reqString(ctx, a, 'TaskGroup', at);
  reqString(ctx, a, 'DesiredStatus', at);
  reqString(ctx, a, 'ClientStatus', at);
  reqNumber(ctx, a, 'CreateIndex', at);
  reqNumber(ctx, a, 'ModifyIndex', at);
  optStrings(
    ctx,
    a,
    at,
    'EvalID',
    'Name',
    'Namespace',
    'NodeID',
    'NodeName',
    'JobType',
    'DesiredDescription',
    'ClientDescription',
    'NextAllocation',
    'PreviousAllocation',
    'FollowupEvalID',
  );
  optNumbers(ctx, a, at, 'JobVersion', 'AllocModifyIndex', 'CreateTime', 'ModifyTime');
  optObject(ctx, a, 'DesiredTransition', at, (c, t, p) =>
    optBooleans(c, t, p, 'Migrate', 'Reschedule', 'ForceReschedule', 'NoShutdownDelay'),
  );
  // A pending allocation has no task states yet: missing or null stays undefined.
  optMapOf(ctx, a, 'TaskStates', at, checkTaskState);
}

function checkAllocation(ctx: DecodeContext, a: JsonObject, at: string): void {
  checkAllocStub(ctx, a, at);
  // The embedded job may be missing (seed fix: never crash on it), and so may its Type.
  optObject(ctx, a, 'Job', at, checkJob);
}

/** `GET /v1/job/:id/allocations`. */
export function decodeAllocStubs(ctx: DecodeContext, value: unknown): AllocListStub[] {
  return listOf<AllocListStub>(ctx, value, checkAllocStub);
}

/** `GET /v1/allocation/:id`. */
export function decodeAllocation(ctx: DecodeContext, value: unknown): Allocation {
  return oneOf<Allocation>(ctx, value, checkAllocation);
}

/** `PUT /v1/allocation/:id/stop`; a missing `Index` is taken from `X-Nomad-Index`. */
export function decodeAllocStopResponse(
  ctx: DecodeContext,
  value: unknown,
  headerIndex: number,
): AllocStopResponse {
  const body = object(ctx, value, '');
  reqString(ctx, body, 'EvalID', '');
  optNumbers(ctx, body, '', 'Index');
  if (body['Index'] === undefined) body['Index'] = headerIndex;
  return body as unknown as AllocStopResponse;
}

/**
 * `GET /v1/client/allocation/:id/checks`: a map by check ID. Nomad answers `null` for an
 * allocation without Nomad checks and for one its client has killed; both decode as empty.
 */
export function decodeAllocChecks(ctx: DecodeContext, value: unknown): AllocCheckStatuses {
  if (value === null) return {};
  const map = object(ctx, value, '');
  for (const id in map) {
    const result = object(ctx, map[id], id);
    reqString(ctx, result, 'Check', id);
    reqString(ctx, result, 'Status', id);
    reqNumber(ctx, result, 'Timestamp', id);
    optStrings(ctx, result, id, 'ID', 'Group', 'Task', 'Service', 'Mode', 'Output');
    optNumbers(ctx, result, id, 'StatusCode');
    result['ID'] ??= id;
  }
  return map as unknown as AllocCheckStatuses;
}
