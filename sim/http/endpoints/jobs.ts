/**
 * `/v1/jobs` and `/v1/job/:id[/...]`: list, register, read, versions, allocations,
 * evaluations, deployments, summary, evaluate, deregister (Nomad's `api/jobs.go`,
 * `command/agent/job_endpoint.go`).
 */
import type { Job } from '../../../lib/nomad/types';
import { SimHttpError } from '../../errors';
import { decodeJob, decodeRegisterBody, parseJsonBody } from '../../model/job-spec';
import { renderAllocStub, renderJob, renderSummary } from '../../model/render';
import { type JobRecord, jobKey } from '../../model/store';
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../api';
import { namespaceOf, notFound, ok, principalOf } from '../api';
import { byId, namespaceRead } from '../reads';
import { listJobs } from './job-list';

function findJob(env: ApiEnv, req: ApiRequest, id: string): JobRecord | undefined {
  return env.cluster.ctx.store.jobs.get(jobKey(namespaceOf(req), id));
}

function register(env: ApiEnv, req: ApiRequest, pathId: string | undefined): ApiResponse {
  const principal = principalOf(env, req);
  const job: Job = decodeRegisterBody(parseJsonBody(req.body));
  if (pathId !== undefined && job.ID !== pathId) throw new SimHttpError(400, 'Job ID does not match name');
  const namespace = job.Namespace || namespaceOf(req);
  env.acl.require(principal, namespace, 'submit-job');
  const result = env.cluster.registerJob(job, namespace);
  return ok(result, result.Index);
}

function readJob(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const { store } = env.cluster.ctx;
  return namespaceRead(env, req, () => ({
    tables: ['jobs'],
    resourceIndex: () => findJob(env, req, id)?.job.ModifyIndex ?? store.last('jobs'),
    render: () => {
      const record = findJob(env, req, id);
      if (!record) throw notFound('job not found');
      return ok(renderJob(store, record));
    },
  }));
}

function deregister(env: ApiEnv, req: ApiRequest, id: string): ApiResponse {
  env.acl.require(principalOf(env, req), namespaceOf(req), 'submit-job');
  const record = findJob(env, req, id);
  if (!record) throw notFound('job not found');
  const result = env.cluster.registerJob({ ...record.job, Stop: true }, record.namespace);
  return ok(result, result.Index);
}

function versions(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const { store } = env.cluster.ctx;
  const maxIndex = (): number => {
    const record = findJob(env, req, id);
    return record ? Math.max(...record.versions.map((v) => v.ModifyIndex ?? 0)) : store.last('job_version');
  };
  return namespaceRead(env, req, () => ({
    tables: ['job_version'],
    resourceIndex: maxIndex,
    render: () => {
      const record = findJob(env, req, id);
      if (!record) throw notFound('job versions not found');
      const index = maxIndex();
      return ok({
        Versions: record.versions,
        Diffs: null,
        Index: index,
        LastContact: 0,
        KnownLeader: true,
        NextToken: '',
      });
    },
  }));
}

function allocations(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const { store } = env.cluster.ctx;
  // Nomad's job endpoint has no `task_states` parameter (only `/v1/allocations` does): stubs
  // here always carry their task states.
  return namespaceRead(env, req, (namespace) => ({
    tables: ['allocs'],
    resourceIndex: () => store.last('allocs'),
    render: () => ok(store.allocsOfJob(namespace, id).map((r) => renderAllocStub(r))),
  }));
}

function evaluations(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const { store } = env.cluster.ctx;
  return namespaceRead(env, req, (namespace) => ({
    tables: ['evals'],
    resourceIndex: () => store.last('evals'),
    render: () => ok(store.evalsOfJob(namespace, id)),
  }));
}

function deployments(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const { store } = env.cluster.ctx;
  return namespaceRead(env, req, (namespace) => ({
    tables: ['deployment'],
    resourceIndex: () => store.last('deployment'),
    render: () =>
      ok(
        [...store.deployments.values()]
          .filter((d) => d.JobID === id && d.Namespace === namespace)
          .sort((a, b) => (b.CreateIndex ?? 0) - (a.CreateIndex ?? 0)),
      ),
  }));
}

function summary(env: ApiEnv, req: ApiRequest, id: string): Promise<ApiResponse> {
  const { store } = env.cluster.ctx;
  return namespaceRead(env, req, () => ({
    tables: ['job_summary'],
    resourceIndex: () => findJob(env, req, id)?.summaryModifyIndex ?? store.last('job_summary'),
    render: () => {
      const record = findJob(env, req, id);
      if (!record) throw notFound('job not found');
      return ok(renderSummary(store, record));
    },
  }));
}

function evaluate(env: ApiEnv, req: ApiRequest, id: string): ApiResponse {
  let force = false;
  if (req.body.length > 0) {
    const body = parseJsonBody(req.body);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new SimHttpError(
        400,
        'json: cannot unmarshal non-object into Go value of type api.JobEvaluateRequest',
      );
    }
    const fields = body as Record<string, unknown>;
    const jobId = fields['JobID'];
    const options = fields['EvalOptions'];
    if (jobId !== undefined && jobId !== null && typeof jobId !== 'string') {
      throw new SimHttpError(
        400,
        `json: cannot unmarshal ${typeof jobId} into Go struct field JobEvaluateRequest.JobID of type string`,
      );
    }
    if (!jobId) throw new SimHttpError(400, 'Job ID must be specified');
    if (jobId !== id) throw new SimHttpError(400, 'JobID not same as job name');
    if (typeof options === 'object' && options !== null) {
      const flag = (options as Record<string, unknown>)['ForceReschedule'];
      if (flag !== undefined && flag !== null && typeof flag !== 'boolean') {
        throw new SimHttpError(
          400,
          `json: cannot unmarshal ${typeof flag} into Go struct field EvalOptions.EvalOptions.ForceReschedule of type bool`,
        );
      }
      force = flag === true;
    }
  }
  const principal = principalOf(env, req);
  env.acl.require(principal, namespaceOf(req), 'submit-job', 'evaluate-job');
  const record = findJob(env, req, id);
  if (!record) throw new SimHttpError(500, 'job not found');
  const result = env.cluster.evaluateJob(record, force);
  return ok(result, result.Index);
}

const READS: Record<string, (env: ApiEnv, req: ApiRequest, id: string) => Promise<ApiResponse>> = {
  versions,
  allocations,
  evaluations,
  deployments,
  summary,
};

/** Suffix routing as Nomad's `jobSpecificRequest` does: job IDs may contain `/`. */
export function jobRoute(path: string): { route: Route; params: Record<string, string> } | undefined {
  const rest = path.slice('/v1/job/'.length);
  for (const suffix of Object.keys(READS)) {
    if (rest.endsWith(`/${suffix}`)) {
      const read = READS[suffix];
      if (!read) continue;
      return {
        route: byId(`/v1/job/:id/${suffix}`, ['GET'], read),
        params: { id: rest.slice(0, -suffix.length - 1) },
      };
    }
  }
  if (rest.endsWith('/evaluate')) {
    return {
      route: byId('/v1/job/:id/evaluate', ['PUT', 'POST'], evaluate),
      params: { id: rest.slice(0, -'/evaluate'.length) },
    };
  }
  const readOrWrite = (env: ApiEnv, req: ApiRequest, id: string) => {
    if (req.method === 'GET') return readJob(env, req, id);
    if (req.method === 'DELETE') return deregister(env, req, id);
    return register(env, req, id);
  };
  return { route: byId('/v1/job/:id', ['GET', 'PUT', 'POST', 'DELETE'], readOrWrite), params: { id: rest } };
}

/** `/v1/jobs`: GET lists, PUT/POST registers. */
export const jobsRoute: Route = {
  pattern: '/v1/jobs',
  methods: ['GET', 'PUT', 'POST'],
  handler: (env, req) => (req.method === 'GET' ? listJobs(env, req) : register(env, req, undefined)),
};

/** Decodes a job for the control API (`{"Job": {...}}` or a bare job). */
export function decodeControlJob(body: unknown): Job {
  if (typeof body === 'object' && body !== null && 'Job' in body) return decodeRegisterBody(body);
  return decodeJob(body);
}
