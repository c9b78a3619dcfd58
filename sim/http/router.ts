/** Maps a decoded `/v1` path to its route, the way Nomad's mux and suffix handlers do. */
import type { Route } from './api';
import { allocationRoute, allocationsRoute, clientAllocationRoute } from './endpoints/allocations';
import { fixedRoutes, idRoutes } from './endpoints/cluster';
import { jobRoute, jobsRoute } from './endpoints/jobs';
import { variablesRoute } from './endpoints/variable-list';
import { variableMatch } from './endpoints/variables';

export interface Match {
  route: Route;
  params: Record<string, string>;
}

const FIXED = new Map<string, Route>([
  [jobsRoute.pattern, jobsRoute],
  [allocationsRoute.pattern, allocationsRoute],
  [variablesRoute.pattern, variablesRoute],
  ...fixedRoutes.map((r) => [r.pattern, r] as const),
]);

/** The route for a path, or undefined (404). */
export function matchRoute(path: string): Match | undefined {
  const fixed = FIXED.get(path);
  if (fixed) return { route: fixed, params: {} };
  if (path.startsWith('/v1/job/') && path.length > '/v1/job/'.length) return jobRoute(path);
  if (path.startsWith('/v1/allocation/') && path.length > '/v1/allocation/'.length)
    return allocationRoute(path);
  if (path.startsWith('/v1/client/allocation/')) return clientAllocationRoute(path);
  if (path.startsWith('/v1/var/')) return variableMatch(path);
  for (const { prefix, suffix, route } of idRoutes) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    if (suffix !== undefined) {
      if (rest.endsWith(suffix) && rest.length > suffix.length)
        return { route, params: { id: rest.slice(0, -suffix.length) } };
      continue;
    }
    if (rest !== '' && !rest.includes('/')) return { route, params: { id: rest } };
  }
  return undefined;
}
