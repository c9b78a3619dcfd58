/**
 * Checks Nomad's job, version, summary and deployment answers against the fields the restart reads.
 */
import type {
  Deployment,
  Job,
  JobEvaluateResponse,
  JobListStub,
  JobRegisterResponse,
  JobSummary,
} from '../types';
import {
  type DecodeContext,
  type JsonObject,
  listOf,
  object,
  oneOf,
  optArrayOf,
  optArrays,
  optBooleans,
  optNumbers,
  optObject,
  optObjects,
  optStrings,
  reqString,
} from './decode';

function checkTask(ctx: DecodeContext, t: JsonObject, at: string): void {
  reqString(ctx, t, 'Name', at);
  optStrings(ctx, t, at, 'Driver');
  optNumbers(ctx, t, at, 'ShutdownDelay', 'KillTimeout');
  optObjects(ctx, t, at, 'Config', 'Env');
  optObject(ctx, t, 'Lifecycle', at, (c, l, a) => {
    reqString(c, l, 'Hook', a);
    optBooleans(c, l, a, 'Sidecar');
  });
  optArrayOf(ctx, t, 'Templates', at, (c, tmpl, a) =>
    optStrings(c, tmpl, a, 'EmbeddedTmpl', 'SourcePath', 'DestPath', 'ChangeMode', 'LeftDelim', 'RightDelim'),
  );
}

function checkTaskGroup(ctx: DecodeContext, tg: JsonObject, at: string): void {
  reqString(ctx, tg, 'Name', at);
  optNumbers(ctx, tg, at, 'Count', 'ShutdownDelay', 'MaxClientDisconnect');
  optArrayOf(ctx, tg, 'Tasks', at, checkTask);
  optObjects(ctx, tg, at, 'Update');
  optArrays(ctx, tg, at, 'Constraints');
  optObject(ctx, tg, 'Disconnect', at, (c, d, a) => {
    optNumbers(c, d, a, 'LostAfter', 'StopOnClientAfter');
    optBooleans(c, d, a, 'Replace');
    optStrings(c, d, a, 'Reconcile');
  });
}

/** Checks a Job. `Type` may be missing (an old or pruned definition): it stays `undefined`. */
export function checkJob(ctx: DecodeContext, job: JsonObject, at: string): void {
  reqString(ctx, job, 'ID', at);
  optStrings(ctx, job, at, 'Name', 'Namespace', 'Region', 'ParentID', 'Type', 'Status', 'NodePool');
  optNumbers(
    ctx,
    job,
    at,
    'Priority',
    'Version',
    'SubmitTime',
    'CreateIndex',
    'ModifyIndex',
    'JobModifyIndex',
  );
  optBooleans(ctx, job, at, 'Stop');
  optArrays(ctx, job, at, 'Datacenters', 'Constraints');
  optObjects(ctx, job, at, 'Update', 'Periodic', 'ParameterizedJob');
  optArrayOf(ctx, job, 'TaskGroups', at, checkTaskGroup);
  optObject(ctx, job, 'Multiregion', at, (c, m, a) => {
    optArrayOf(c, m, 'Regions', a, (c2, r, a2) => {
      reqString(c2, r, 'Name', a2);
      optNumbers(c2, r, a2, 'Count');
    });
  });
}

function checkJobSummary(ctx: DecodeContext, s: JsonObject, at: string): void {
  optStrings(ctx, s, at, 'JobID', 'Namespace');
  optObjects(ctx, s, at, 'Summary');
  optNumbers(ctx, s, at, 'CreateIndex', 'ModifyIndex');
}

function checkJobListStub(ctx: DecodeContext, j: JsonObject, at: string): void {
  reqString(ctx, j, 'ID', at);
  optStrings(ctx, j, at, 'ParentID', 'Name', 'Namespace', 'Type', 'Status', 'StatusDescription');
  optNumbers(ctx, j, at, 'Priority', 'CreateIndex', 'ModifyIndex', 'JobModifyIndex', 'SubmitTime');
  optBooleans(ctx, j, at, 'Periodic', 'ParameterizedJob', 'Stop');
  optArrays(ctx, j, at, 'Datacenters');
  optObject(ctx, j, 'JobSummary', at, checkJobSummary);
  optObjects(ctx, j, at, 'Meta');
}

function checkDeployment(ctx: DecodeContext, d: JsonObject, at: string): void {
  reqString(ctx, d, 'ID', at);
  reqString(ctx, d, 'JobID', at);
  reqString(ctx, d, 'Status', at);
  optStrings(ctx, d, at, 'Namespace', 'StatusDescription');
  optNumbers(ctx, d, at, 'JobVersion', 'JobModifyIndex', 'JobCreateIndex', 'CreateIndex', 'ModifyIndex');
}

/** `GET /v1/jobs`. */
export function decodeJobList(ctx: DecodeContext, value: unknown): JobListStub[] {
  return listOf<JobListStub>(ctx, value, checkJobListStub);
}

/** `GET /v1/job/:id`. */
export function decodeJob(ctx: DecodeContext, value: unknown): Job {
  return oneOf<Job>(ctx, value, checkJob);
}

/** `GET /v1/job/:id/versions`: the `Versions` array, newest first as served. */
export function decodeJobVersions(ctx: DecodeContext, value: unknown): Job[] {
  const body = object(ctx, value, '');
  const versions = body['Versions'];
  // Go encodes an empty slice as null; treat it as no versions rather than a malformed body.
  if (versions === null || versions === undefined) return [];
  return listOf<Job>(ctx, versions, (c, j, a) => checkJob(c, j, `Versions${a}`));
}

/** `GET /v1/job/:id/summary`. */
export function decodeJobSummary(ctx: DecodeContext, value: unknown): JobSummary {
  return oneOf<JobSummary>(ctx, value, checkJobSummary);
}

/** `GET /v1/job/:id/deployments`. */
export function decodeDeployments(ctx: DecodeContext, value: unknown): Deployment[] {
  return listOf<Deployment>(ctx, value, checkDeployment);
}

/** `PUT /v1/job/:id/evaluate`. */
export function decodeJobEvaluateResponse(ctx: DecodeContext, value: unknown): JobEvaluateResponse {
  const body = object(ctx, value, '');
  reqString(ctx, body, 'EvalID', '');
  optNumbers(ctx, body, '', 'EvalCreateIndex', 'JobModifyIndex', 'Index');
  return body as unknown as JobEvaluateResponse;
}

/** `PUT /v1/jobs`. */
export function decodeJobRegisterResponse(ctx: DecodeContext, value: unknown): JobRegisterResponse {
  const body = object(ctx, value, '');
  optStrings(ctx, body, '', 'EvalID', 'Warnings');
  optNumbers(ctx, body, '', 'EvalCreateIndex', 'JobModifyIndex', 'Index');
  return body as JobRegisterResponse;
}
