/**
 * Which job a Nomad request is about, for the request log: a fleet's tests count the jobs in
 * flight from the log, and a restart or a stop names only its allocation.
 */
import { ALLOCATION, equalityOn, listFilter } from '../filter';
import type { ApiEnv } from './api';
import type { Match } from './router';

/** A job by namespace and ID. */
export interface RequestJob {
  readonly namespace: string;
  readonly job: string;
}

/**
 * The job of a request: the job routes' own, the job of the allocation, evaluation or deployment
 * a route names, or the job a `JobID == "<id>"` allocations filter selects; `undefined` otherwise.
 */
export function jobOfRequest(env: ApiEnv, match: Match, query: URLSearchParams): RequestJob | undefined {
  const { pattern } = match.route;
  const id = match.params['id'] ?? '';
  const { store } = env.cluster.ctx;
  // As `namespaceOf` reads a request's namespace.
  const namespace = query.get('namespace') || 'default';
  if (pattern.startsWith('/v1/job/:id')) return { namespace, job: id };
  const record = pattern.includes('allocation/:id')
    ? store.allocs.get(id)?.alloc
    : pattern.startsWith('/v1/evaluation/:id')
      ? store.evals.get(id)
      : pattern.startsWith('/v1/deployment/:id')
        ? store.deployments.get(id)
        : undefined;
  if (record !== undefined) return { namespace: record.Namespace ?? 'default', job: record.JobID ?? '' };
  if (pattern === '/v1/allocations') {
    try {
      const job = equalityOn(listFilter(query.get('filter'), ALLOCATION), 'JobID');
      if (job !== undefined) return { namespace, job };
    } catch {
      // A filter Nomad refuses names no job; the request itself answers the 400.
    }
  }
  return undefined;
}
