/**
 * Job endpoints of the Nomad client (`client.jobs()`).
 */
import { decodeAllocStubs } from './private/decode-alloc';
import { decodeEvaluations } from './private/decode-eval-node';
import {
  decodeDeployments,
  decodeJob,
  decodeJobEvaluateResponse,
  decodeJobList,
  decodeJobRegisterResponse,
  decodeJobSummary,
  decodeJobVersions,
} from './private/decode-job';
import type { Requester } from './private/requester';
import {
  type PageOptions,
  type QueryOptions,
  type QueryResult,
  setPageParams,
  type WriteOptions,
  type WriteResult,
} from './query';
import type {
  AllocListStub,
  Deployment,
  Evaluation,
  Job,
  JobEvaluateRequest,
  JobEvaluateResponse,
  JobListStub,
  JobRegisterResponse,
  JobSummary,
} from './types';

/** `/v1/job/<id>` with the ID path-escaped: job IDs may contain `/` (`a/b` → `a%2Fb`). */
function jobPath(jobId: string, suffix = ''): string {
  return `/v1/job/${encodeURIComponent(jobId)}${suffix}`;
}

/** Job endpoints, reached as `client.jobs()`; mirrors Nomad's `api/jobs.go`. */
export class Jobs {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /**
   * `GET /v1/jobs?prefix=&filter=&meta=&per_page=&next_token=`: job stubs whose ID starts with
   * `prefix` and that pass `filter` (a go-bexpr expression Nomad evaluates on each whole job, so
   * `Meta.team == "x"` works though the stub has no `Meta`; a malformed one is Nomad's 400).
   * `meta` adds each job's `Meta` to its stub. With `q.namespace` `*`: every namespace the token
   * may list, the others silently left out.
   */
  public list(
    opts: { prefix?: string; filter?: string; meta?: boolean } & PageOptions,
    q?: QueryOptions,
  ): Promise<QueryResult<JobListStub[]>> {
    const params: Record<string, string> = {};
    if (opts.prefix !== undefined && opts.prefix !== '') params['prefix'] = opts.prefix;
    if (opts.filter !== undefined && opts.filter !== '') params['filter'] = opts.filter;
    if (opts.meta === true) params['meta'] = 'true';
    setPageParams(params, opts);
    return this.http.query('/v1/jobs', params, q, decodeJobList);
  }

  /** `GET /v1/job/:id`. The job's `Type` may be missing; it decodes as `undefined`. */
  public info(jobId: string, q?: QueryOptions): Promise<QueryResult<Job>> {
    return this.http.query(jobPath(jobId), {}, q, decodeJob);
  }

  /** `GET /v1/job/:id/versions?diffs=false`: the versions, newest first as served. */
  public versions(jobId: string, q?: QueryOptions): Promise<QueryResult<Job[]>> {
    return this.http.query(jobPath(jobId, '/versions'), { diffs: 'false' }, q, decodeJobVersions);
  }

  /** `GET /v1/job/:id/allocations?all=true`, in the order served (callers sort). */
  public allocations(jobId: string, q?: QueryOptions): Promise<QueryResult<AllocListStub[]>> {
    return this.http.query(jobPath(jobId, '/allocations'), { all: 'true' }, q, decodeAllocStubs);
  }

  /** `GET /v1/job/:id/deployments?all=true`. */
  public deployments(jobId: string, q?: QueryOptions): Promise<QueryResult<Deployment[]>> {
    return this.http.query(jobPath(jobId, '/deployments'), { all: 'true' }, q, decodeDeployments);
  }

  /** `GET /v1/job/:id/evaluations`; with `q.index` a blocking watch for new evaluations. */
  public evaluations(jobId: string, q?: QueryOptions): Promise<QueryResult<Evaluation[]>> {
    return this.http.query(jobPath(jobId, '/evaluations'), {}, q, decodeEvaluations);
  }

  /** `GET /v1/job/:id/summary`. */
  public summary(jobId: string, q?: QueryOptions): Promise<QueryResult<JobSummary>> {
    return this.http.query(jobPath(jobId, '/summary'), {}, q, decodeJobSummary);
  }

  /**
   * `PUT /v1/job/:id/evaluate` with the body Nomad's CLI sends (empty `Region`, `Namespace`
   * and `SecretID`: those travel as query parameters and header). Never retried once sent.
   */
  public evaluate(
    jobId: string,
    opts: { forceReschedule: boolean },
    w?: WriteOptions,
  ): Promise<WriteResult<JobEvaluateResponse>> {
    const body: JobEvaluateRequest = {
      JobID: jobId,
      EvalOptions: { ForceReschedule: opts.forceReschedule },
      Region: '',
      Namespace: '',
      SecretID: '',
    };
    return this.http.write(jobPath(jobId, '/evaluate'), {}, body, w, decodeJobEvaluateResponse);
  }

  /** `PUT /v1/jobs` with `{"Job": job}`. Never retried once sent. */
  public register(job: Job, w?: WriteOptions): Promise<WriteResult<JobRegisterResponse>> {
    return this.http.write('/v1/jobs', {}, { Job: job }, w, decodeJobRegisterResponse);
  }
}
