/**
 * Checks Nomad's evaluation and node answers against the fields the restart reads.
 */
import type { Evaluation, Node, NodeListStub } from '../types';
import {
  type DecodeContext,
  type JsonObject,
  listOf,
  oneOf,
  optArrays,
  optBooleans,
  optMapOf,
  optNumbers,
  optObjects,
  optStrings,
  reqNumber,
  reqString,
} from './decode';

function checkMetric(ctx: DecodeContext, m: JsonObject, at: string): void {
  optNumbers(ctx, m, at, 'NodesEvaluated', 'NodesFiltered', 'NodesInPool', 'NodesExhausted');
  optObjects(
    ctx,
    m,
    at,
    'NodesAvailable',
    'ClassFiltered',
    'ConstraintFiltered',
    'ClassExhausted',
    'DimensionExhausted',
  );
  optArrays(ctx, m, at, 'QuotaExhausted');
}

function checkEvaluation(ctx: DecodeContext, e: JsonObject, at: string): void {
  reqString(ctx, e, 'ID', at);
  reqString(ctx, e, 'JobID', at);
  reqString(ctx, e, 'Status', at);
  reqNumber(ctx, e, 'CreateIndex', at);
  reqNumber(ctx, e, 'ModifyIndex', at);
  optStrings(
    ctx,
    e,
    at,
    'Namespace',
    'Type',
    'TriggeredBy',
    'NodeID',
    'DeploymentID',
    'StatusDescription',
    'NextEval',
    'PreviousEval',
    'BlockedEval',
  );
  optNumbers(ctx, e, at, 'Priority', 'JobModifyIndex', 'CreateTime', 'ModifyTime');
  optMapOf(ctx, e, 'FailedTGAllocs', at, checkMetric);
  optObjects(ctx, e, at, 'QueuedAllocations');
}

function checkNode(ctx: DecodeContext, n: JsonObject, at: string): void {
  reqString(ctx, n, 'ID', at);
  reqString(ctx, n, 'Status', at);
  optStrings(ctx, n, at, 'Name', 'Address', 'Datacenter', 'NodeClass', 'NodePool', 'SchedulingEligibility');
  optBooleans(ctx, n, at, 'Drain');
  optObjects(ctx, n, at, 'Drivers');
  optNumbers(ctx, n, at, 'CreateIndex', 'ModifyIndex');
}

/** `GET /v1/job/:id/evaluations`. */
export function decodeEvaluations(ctx: DecodeContext, value: unknown): Evaluation[] {
  return listOf<Evaluation>(ctx, value, checkEvaluation);
}

/** `GET /v1/evaluation/:id`. */
export function decodeEvaluation(ctx: DecodeContext, value: unknown): Evaluation {
  return oneOf<Evaluation>(ctx, value, checkEvaluation);
}

/** `GET /v1/nodes`. */
export function decodeNodes(ctx: DecodeContext, value: unknown): NodeListStub[] {
  return listOf<NodeListStub>(ctx, value, checkNode);
}

/** `GET /v1/node/:id`. */
export function decodeNode(ctx: DecodeContext, value: unknown): Node {
  return oneOf<Node>(ctx, value, checkNode);
}
