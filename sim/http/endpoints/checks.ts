/**
 * `GET /v1/client/allocation/:id/checks` (and `/v1/allocation/:id/checks`): the latest result of
 * each Nomad service check, as the allocation's client holds them. Like Nomad, not a blocking
 * query and no `X-Nomad-Index`; `null` when there are none (no Nomad checks, or a killed or failed
 * allocation); any method.
 */
import { checkResults } from '../../model/checks';
import type { ApiEnv, ApiRequest, ApiResponse } from '../api';
import { clientAllocation } from '../client-allocation';

/** Nomad's checks RPC: the allocation first, then `read-job` on its namespace, then a path to its node. */
export function readChecks(env: ApiEnv, req: ApiRequest, id: string): ApiResponse {
  return { status: 200, body: checkResults(clientAllocation(env, req, id, 'read-job')) };
}
