/**
 * `GET /v1/allocations` as Nomad's `Alloc.List` serves it (`nomad/alloc_endpoint.go`): one
 * namespace or `*` (the allocations of namespaces without `read-job` left out; a 403 when no
 * namespace rule grants `read-job`), `prefix`, the
 * `filter` evaluated on the whole allocation, `task_states=false`, and `per_page`/`next_token`
 * pages in Nomad's order: by create index then ID, tokens `<CreateIndex>.<ID>` (by ID, tokens the
 * ID, with a `prefix`).
 */
import { SimHttpError } from '../../errors';
import { ALLOCATION, equalityOn, type ListFilter, listFilter } from '../../filter';
import { renderAlloc, renderAllocStub } from '../../model/render';
import type { AllocRecord } from '../../model/store';
import type { ApiEnv, ApiRequest, ApiResponse } from '../api';
import { namespaceOf, principalOf } from '../api';
import { blockingQuery } from '../blocking';

/** `GET /v1/allocations`; `taskStates` is the parsed `task_states` parameter. */
export function listAllocations(env: ApiEnv, req: ApiRequest, taskStates: boolean): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  const namespace = namespaceOf(req);
  const { store } = env.cluster.ctx;
  const visible = (r: AllocRecord): boolean =>
    (namespace === '*' || r.alloc.Namespace === namespace) &&
    env.acl.allowed(principal, r.alloc.Namespace ?? 'default', 'read-job');
  if (namespace !== '*') env.acl.require(principal, namespace, 'read-job');
  else if (!env.acl.anyNamespaceAllows(principal, 'read-job'))
    throw new SimHttpError(403, 'Permission denied');
  const prefix = req.query.get('prefix') ?? '';
  const rawPerPage = req.query.get('per_page');
  if (rawPerPage && !/^-?\d+$/.test(rawPerPage)) {
    throw new SimHttpError(400, 'Expect a number for `per_page` query string parameter');
  }
  const perPage = rawPerPage ? Number(rawPerPage) : 0;
  const nextToken = req.query.get('next_token') ?? '';
  const filter = listFilter(req.query.get('filter'), ALLOCATION);
  const jobId = equalityOn(filter, 'JobID');
  // Filtered to a job in one namespace (the batch watch's read of a large job): that job's
  // records, not the whole table through the evaluator.
  const candidates = (): AllocRecord[] =>
    jobId !== undefined && namespace !== '*'
      ? store.allocsOfJob(namespace, jobId)
      : [...store.allocs.values()];
  const passes = passesFilter(filter, jobId);
  const tokenOf = prefix ? (r: AllocRecord) => r.alloc.ID : createIndexToken;
  return blockingQuery(env, req, {
    tables: ['allocs'],
    resourceIndex: () => store.last('allocs'),
    render: () => {
      const records = candidates()
        .filter((r) => visible(r) && r.alloc.ID.startsWith(prefix))
        .sort(prefix ? byId : byCreateIndex);
      const page: AllocRecord[] = [];
      let next: AllocRecord | undefined;
      for (const record of records) {
        if (nextToken && compareToken(tokenOf(record), nextToken, !prefix) < 0) continue;
        if (!passes(record)) continue;
        if (perPage > 0 && page.length === perPage) {
          next = record;
          break;
        }
        page.push(record);
      }
      const headers: Record<string, string> = next ? { 'X-Nomad-NextToken': tokenOf(next) } : {};
      return { status: 200, body: page.map((r) => renderAllocStub(r, taskStates)), headers };
    },
  });
}

/** The filter's test; the full allocation (with its job) is built only when the filter reads `Job`. */
function passesFilter(
  filter: ListFilter | undefined,
  jobId: string | undefined,
): (r: AllocRecord) => boolean {
  if (filter === undefined) return () => true;
  if (jobId !== undefined) return (r) => r.alloc.JobID === jobId;
  const readsJob = JSON.stringify(filter.expression).includes('"path":["Job"');
  return (r) => filter.test(readsJob ? renderAlloc(r) : r.alloc);
}

const createIndexToken = (r: AllocRecord): string => `${r.alloc.CreateIndex ?? 0}.${r.alloc.ID}`;
const byId = (a: AllocRecord, b: AllocRecord): number => (a.alloc.ID < b.alloc.ID ? -1 : 1);
const byCreateIndex = (a: AllocRecord, b: AllocRecord): number =>
  (a.alloc.CreateIndex ?? 0) - (b.alloc.CreateIndex ?? 0) || byId(a, b);

/** Nomad's tokenizer comparison: create index as a number, then the ID. */
function compareToken(token: string, target: string, byIndex: boolean): number {
  if (!byIndex) return token < target ? -1 : token > target ? 1 : 0;
  const [index = '0', ...rest] = token.split('.');
  const [targetIndex = '0', ...targetRest] = target.split('.');
  const diff = Number(index) - Number(targetIndex);
  if (diff !== 0) return diff;
  const id = rest.join('.');
  const targetId = targetRest.join('.');
  return id < targetId ? -1 : id > targetId ? 1 : 0;
}
