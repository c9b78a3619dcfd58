/**
 * `GET /v1/jobs` as Nomad's `Job.List` serves it (`nomad/job_endpoint.go`): for `namespace=*`,
 * every namespace the token may list (a 403 only when no namespace rule grants `list-jobs`, as
 * `AllowNsOp` with the `*` sentinel; the namespaces it may not list left out silently), `prefix`,
 * the `filter` evaluated on the whole job (not the stub), `meta=true` adding each job's `Meta` to
 * its stub, and `per_page`/`next_token` pages over what the filter kept, in the jobs table's order
 * (namespace, then ID) with `<namespace>.<ID>` tokens (`paginator.StructsTokenizer`).
 */
import { SimHttpError } from '../../errors';
import { JOB, listFilter } from '../../filter';
import { renderJob, renderJobStub } from '../../model/render';
import type { JobRecord } from '../../model/store';
import type { ApiEnv, ApiRequest, ApiResponse } from '../api';
import { namespaceOf, principalOf } from '../api';
import { blockingQuery } from '../blocking';
import { boolParam } from '../query';

/** `GET /v1/jobs`. */
export function listJobs(env: ApiEnv, req: ApiRequest): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  const { store } = env.cluster.ctx;
  const namespace = namespaceOf(req);
  const allowed =
    namespace === '*'
      ? (ns: string) => env.acl.allowed(principal, ns, 'list-jobs')
      : (ns: string) => ns === namespace;
  if (namespace !== '*') env.acl.require(principal, namespace, 'list-jobs');
  else if (!env.acl.anyNamespaceAllows(principal, 'list-jobs'))
    throw new SimHttpError(403, 'Permission denied');
  const rawPerPage = req.query.get('per_page');
  const perPage = rawPerPage ? Number(rawPerPage) : 0;
  if (rawPerPage && !/^-?\d+$/.test(rawPerPage)) {
    throw new SimHttpError(400, 'Expect a number for `per_page` query string parameter');
  }
  const filter = listFilter(req.query.get('filter'), JOB);
  const withMeta = boolParam(req, 'meta');
  const prefix = req.query.get('prefix') ?? '';
  const nextToken = req.query.get('next_token') ?? '';
  return blockingQuery(env, req, {
    tables: ['jobs', 'job_summary'],
    resourceIndex: () => Math.max(store.last('jobs'), store.last('job_summary')),
    render: () => {
      const records = [...store.jobs.values()]
        .filter((r) => allowed(r.namespace) && r.id.startsWith(prefix))
        .sort((a, b) => compare(a.namespace, b.namespace) || compare(a.id, b.id));
      const start = nextToken ? records.findIndex((r) => tokenOf(r) >= nextToken) : 0;
      // As Nomad's paginator: the filter runs record by record in page order, and one more
      // passing record than the page holds names the next page.
      const page: JobRecord[] = [];
      let next: JobRecord | undefined;
      for (const record of records.slice(start < 0 ? records.length : start)) {
        if (filter !== undefined && !filter.test(renderJob(store, record))) continue;
        if (perPage > 0 && page.length === perPage) {
          next = record;
          break;
        }
        page.push(record);
      }
      const headers: Record<string, string> = next ? { 'X-Nomad-NextToken': tokenOf(next) } : {};
      const body = page.map((r) => {
        const stub = renderJobStub(store, r);
        return withMeta ? { ...stub, Meta: r.job.Meta ?? null } : stub;
      });
      return { status: 200, body, headers };
    },
  });
}

/** Pagination token: the namespace and ID of the first job of the next page. */
function tokenOf(record: JobRecord): string {
  return `${record.namespace}.${record.id}`;
}

/** Go's string order (bytes, as go-memdb's index keys). */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
