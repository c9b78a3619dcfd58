/**
 * The options and results every endpoint family shares (Nomad's `api.QueryOptions`,
 * `api.QueryMeta`, `api.WriteOptions`), in their own module so that the client and its
 * endpoint families both depend on it and not on each other.
 */

/** Nomad's default and maximum hold of a blocking query (`wait` is capped to it). */
export const MAX_BLOCKING_HOLD_MS = 300_000;

/** Options of a read (GET). Mirrors Nomad's `api.QueryOptions`. */
export interface QueryOptions {
  /** Blocking query: hold until the resource's index is greater than this. 0 or unset: answer at once. */
  index?: number;
  /** Upper bound of the hold, in ms, sent as `wait=<ms>ms`. Unset: Nomad's default, 300 s. */
  waitMs?: number;
  /** Aborts the request (and any retry backoff) with `NomadAbortedError`. */
  signal?: AbortSignal;
  /** Overrides the client's namespace for this call when non-empty. */
  namespace?: string;
  /** Overrides the client's region for this call when non-empty. */
  region?: string;
}

/** Options of a write (PUT). Mirrors Nomad's `api.WriteOptions`. */
export interface WriteOptions {
  /** Aborts the request with `NomadAbortedError` (it may still have reached Nomad). */
  signal?: AbortSignal;
  /** Overrides the client's namespace for this call when non-empty. */
  namespace?: string;
  /** Overrides the client's region for this call when non-empty. */
  region?: string;
}

/** A decoded read with Nomad's query metadata (`api.QueryMeta`). */
export interface QueryResult<T> {
  value: T;
  /** `X-Nomad-Index`; 0 when missing or unparsable. Pass it back as `index` to block. */
  index: number;
  /** `X-Nomad-LastContact`, ms since the answering server last heard from the leader; 0 if absent. */
  lastContact: number;
  /** `X-Nomad-KnownLeader` is `true`. */
  knownLeader: boolean;
  /**
   * `X-Nomad-NextToken` of a paginated list (`per_page`): pass it back as `next_token` for the
   * next page. Absent on the last page and on endpoints that do not paginate.
   */
  nextToken?: string;
}

/** The paging of a list endpoint (Nomad's `QueryOptions.PerPage` and `NextToken`). */
export interface PageOptions {
  /** Items per page, sent as `per_page`. Unset: Nomad's default, everything in one answer. */
  perPage?: number;
  /** The previous page's `nextToken`, sent as `next_token`. */
  nextToken?: string;
}

/** `per_page` and `next_token` as query parameters, set into `params`. */
export function setPageParams(params: Record<string, string>, page: PageOptions): void {
  if (page.perPage !== undefined && page.perPage > 0) params['per_page'] = String(Math.floor(page.perPage));
  if (page.nextToken !== undefined && page.nextToken !== '') params['next_token'] = page.nextToken;
}

/** A decoded write with its index (`X-Nomad-Index`, 0 when absent). */
export interface WriteResult<T> {
  value: T;
  index: number;
}
