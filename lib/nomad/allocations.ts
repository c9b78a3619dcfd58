/**
 * Allocation endpoints of the Nomad client (`client.allocations()`).
 */
import {
  decodeAllocation,
  decodeAllocChecks,
  decodeAllocStopResponse,
  decodeAllocStubs,
} from './private/decode-alloc';
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
  Allocation,
  AllocCheckStatuses,
  AllocListStub,
  AllocRestartRequest,
  AllocStopResponse,
} from './types';

/** Allocation endpoints, reached as `client.allocations()`; mirrors Nomad's `api/allocations.go`. */
export class Allocations {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /**
   * `GET /v1/allocations?filter=<expr>&task_states=false`: the namespace's allocations that pass
   * `filter` (a go-bexpr expression Nomad evaluates on each allocation), without `TaskStates`
   * when `taskStates` is false. With `q.index` a blocking watch on the whole allocations table;
   * with `q.namespace` `*` every namespace the token may read; paginated with `perPage`.
   */
  public list(
    opts: { filter?: string; taskStates?: boolean } & PageOptions,
    q?: QueryOptions,
  ): Promise<QueryResult<AllocListStub[]>> {
    const params: Record<string, string> = {};
    if (opts.filter !== undefined && opts.filter !== '') params['filter'] = opts.filter;
    if (opts.taskStates !== undefined) params['task_states'] = String(opts.taskStates);
    setPageParams(params, opts);
    return this.http.query('/v1/allocations', params, q, decodeAllocStubs);
  }

  /** `GET /v1/allocation/:id`; with `q.index` a blocking watch. `Job` and `TaskStates` may be missing. */
  public info(allocId: string, q?: QueryOptions): Promise<QueryResult<Allocation>> {
    return this.http.query(`/v1/allocation/${encodeURIComponent(allocId)}`, {}, q, decodeAllocation);
  }

  /**
   * `GET /v1/client/allocation/:id/checks`: the latest result of each Nomad service check of the
   * allocation, as its client holds them. Not a blocking query (Nomad has none here), and the
   * answer carries no index. Empty when the allocation has no Nomad checks or was killed.
   */
  public checks(allocId: string, q?: QueryOptions): Promise<QueryResult<AllocCheckStatuses>> {
    return this.http.query(
      `/v1/client/allocation/${encodeURIComponent(allocId)}/checks`,
      {},
      q,
      decodeAllocChecks,
    );
  }

  /**
   * `PUT /v1/client/allocation/:id/restart` with `{"TaskName":"","AllTasks":false}` filled in
   * from `opts`. Restarts tasks in place. Never retried once sent: twice would restart twice.
   */
  public async restart(
    allocId: string,
    opts: { taskName?: string; allTasks?: boolean },
    w?: WriteOptions,
  ): Promise<void> {
    const body: AllocRestartRequest = { TaskName: opts.taskName ?? '', AllTasks: opts.allTasks ?? false };
    await this.http.writeIgnoringBody(
      `/v1/client/allocation/${encodeURIComponent(allocId)}/restart`,
      {},
      body,
      w,
    );
  }

  /**
   * `PUT /v1/allocation/:id/stop[?no_shutdown_delay=true]`, no body. The scheduler then
   * places a replacement. `index` is `X-Nomad-Index` (0 if absent). Never retried once sent.
   */
  public stop(
    allocId: string,
    opts: { noShutdownDelay?: boolean },
    w?: WriteOptions,
  ): Promise<WriteResult<AllocStopResponse>> {
    const params: Record<string, string> = opts.noShutdownDelay === true ? { no_shutdown_delay: 'true' } : {};
    return this.http.write(
      `/v1/allocation/${encodeURIComponent(allocId)}/stop`,
      params,
      undefined,
      w,
      decodeAllocStopResponse,
    );
  }
}
