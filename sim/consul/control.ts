/**
 * The simulated Consul's side of the control API: check scripts, ACL tokens, counters and the request
 * log, in process (`sim.consul`) and over HTTP under `/_sim` on the Consul port.
 */
import { badField, field, targetFromBody } from '../control-body';
import { SimControlError } from '../errors';
import type { ApiRequest, ApiResponse } from '../http/api';
import type { Faults } from '../http/faults';
import type { RequestStats } from '../http/stats';
import type { SimConsulCheckScript } from '../model/behaviours';
import type { Cluster } from '../model/cluster';
import { parseJsonBody } from '../model/job-spec';
import type { SimConsulControl } from '../types';
import type { ConsulAcl, SimConsulAclSpec } from './acl';

/** Builds the Consul control over the cluster's catalog. */
export function createConsulControl(
  cluster: Cluster,
  acl: ConsulAcl,
  faults: Faults,
  stats: RequestStats,
): SimConsulControl {
  return {
    setCheck: (target, check, script) => cluster.setConsulCheck(target, check, script),
    configureAcl: (spec) => acl.configure(spec),
    checks: (service) =>
      cluster.ctx.consul.instancesOf(service).flatMap((s) => s.checks.map((c) => ({ ...c.wire }))),
    counters: () => stats.counters(),
    requestRates: () => stats.rates(),
    requestLog: () => stats.requests(),
    resetCounters: () => stats.reset(),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
  };
}

const STATUSES = ['passing', 'warning', 'critical', 'flapping'];

function scriptFromBody(body: unknown): SimConsulCheckScript {
  const status = field(body, 'status');
  const output = field(body, 'output');
  const flaps = field(body, 'flaps');
  if (typeof status !== 'string' || !STATUSES.includes(status))
    throw badField('status', status, STATUSES.map((s) => `"${s}"`).join(', '));
  if (output !== undefined && typeof output !== 'string') throw badField('output', output, 'a string');
  if (flaps !== undefined && (typeof flaps !== 'number' || !Number.isInteger(flaps) || flaps < 1))
    throw badField('flaps', flaps, 'an integer of at least 1');
  return {
    status,
    ...(output === undefined ? {} : { output }),
    ...(flaps === undefined ? {} : { flaps }),
  } as SimConsulCheckScript;
}

/**
 * `/_sim` on the Consul port: `PUT /_sim/checks` (`{allocationId | jobId, namespace?, check, status,
 * output?, flaps?}`), `PUT /_sim/acl` (a `SimConsulAclSpec`, `{}` for off), `GET`/`DELETE /_sim/counters`, `GET /_sim/rates`
 * and `GET /_sim/requests`.
 */
export function createConsulControlHandler(
  control: SimConsulControl,
): (req: ApiRequest) => Promise<ApiResponse> {
  return async (req) => {
    const route = `${req.method} ${req.path.replace(/^\/_sim/, '')}`;
    try {
      return answer(control, route, req.body);
    } catch (error) {
      if (error instanceof SimControlError) return { status: 404, body: error.message };
      throw error;
    }
  };
}

const notFound = (route: string): ApiResponse => ({ status: 404, body: `Unknown control route "${route}"` });

function answer(control: SimConsulControl, route: string, raw: string): ApiResponse {
  const body = (): unknown => (raw.trim() === '' ? {} : parseJsonBody(raw));
  switch (route) {
    case 'PUT /checks': {
      const b = body();
      const check = field(b, 'check');
      if (typeof check !== 'string') throw badField('check', check, 'a check name (string)');
      control.setCheck(targetFromBody(b), check, scriptFromBody(b));
      return { status: 200, body: { ok: true } };
    }
    case 'PUT /acl': {
      const spec = body() as SimConsulAclSpec;
      control.configureAcl(spec.enabled === true ? spec : undefined);
      return { status: 200, body: { ok: true } };
    }
    case 'GET /counters':
      return { status: 200, body: control.counters() };
    case 'GET /rates':
      return { status: 200, body: control.requestRates() };
    case 'DELETE /counters':
      control.resetCounters();
      return { status: 200, body: { ok: true } };
    case 'GET /requests':
      return { status: 200, body: control.requestLog() };
    default:
      return notFound(route);
  }
}
