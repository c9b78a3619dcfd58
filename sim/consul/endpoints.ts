/**
 * The simulated Consul's HTTP API: Consul's health reads of a service (`GET /v1/health/checks/:service`
 * and `GET /v1/health/service/:service`), blocking on `index`/`wait` with `X-Consul-Index`, and
 * filtered by its ACLs.
 */
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../http/api';
import { blockingQuery } from '../http/blocking';
import type { Match } from '../http/router';
import type { ServedApi } from '../http/server';
import type { ConsulAcl, ConsulReader } from './acl';
import { type CatalogService, type SimConsulCheckWire, serfHealth } from './catalog';

/** Consul's query-meta headers, as a real agent's read answers them (Go spells them so on the wire). */
function consulIndexHeaders(acl: ConsulAcl): (index: number) => Record<string, string> {
  const policy = acl.defaultPolicy();
  return (index) => ({
    'X-Consul-Index': String(Math.max(1, index)),
    'X-Consul-Knownleader': 'true',
    'X-Consul-Lastcontact': '0',
    'X-Consul-Effective-Consistency': 'leader',
    'X-Consul-Query-Backend': 'blocking-query',
    ...(policy === undefined ? {} : { 'X-Consul-Default-Acl-Policy': policy }),
  });
}

const copy = (check: SimConsulCheckWire): SimConsulCheckWire => ({
  ...check,
  ServiceTags: [...check.ServiceTags],
});

/** A read of one service's instances, kept to what the token may see, held while nothing changed. */
function healthRead(
  acl: ConsulAcl,
  render: (instances: CatalogService[], reader: ConsulReader) => { body: unknown; filtered: boolean },
) {
  return (env: ApiEnv, req: ApiRequest, params: Record<string, string>): Promise<ApiResponse> => {
    const reader = acl.resolve(req.token);
    const catalog = env.cluster.ctx.consul;
    const service = params['service'] ?? '';
    return blockingQuery(env, req, {
      tables: ['consul'],
      resourceIndex: () => catalog.index(),
      indexHeaders: consulIndexHeaders(acl),
      render: () => {
        const { body, filtered } = render(catalog.instancesOf(service), reader);
        return {
          status: 200,
          body,
          headers: filtered && reader.saysFiltered ? { 'X-Consul-Results-Filtered-By-Acls': 'true' } : {},
        };
      },
    });
  };
}

function checksRoute(acl: ConsulAcl): Route {
  return {
    pattern: '/v1/health/checks/:service',
    methods: ['GET'],
    handler: healthRead(acl, (instances, reader) => {
      const all = instances.flatMap((s) => s.checks.map((c) => c.wire));
      const visible = all.filter((c) => reader.canRead(c.Node, c.ServiceName));
      return { body: visible.map(copy), filtered: visible.length < all.length };
    }),
  };
}

function serviceRoute(acl: ConsulAcl): Route {
  return {
    pattern: '/v1/health/service/:service',
    methods: ['GET'],
    handler: healthRead(acl, (instances, reader) => {
      const visible = instances.filter((s) => reader.canRead(s.node, s.name));
      const body = visible.map((s) => ({
        Node: { ID: '', Node: s.node, Address: '127.0.0.1', Datacenter: 'dc1' },
        Service: { ID: s.id, Service: s.name, Tags: [], Address: '127.0.0.1', Port: s.port },
        Checks: [serfHealth(s.node, s.createIndex), ...s.checks.map((c) => copy(c.wire))],
      }));
      return { body, filtered: visible.length < instances.length };
    }),
  };
}

/** The simulated Consul as a served API, over the same server code as the simulated Nomad. */
export function consulApi(acl: ConsulAcl): ServedApi {
  const routes: Array<[string, Route]> = [
    ['/v1/health/checks/', checksRoute(acl)],
    ['/v1/health/service/', serviceRoute(acl)],
  ];
  return {
    tokenHeader: 'x-consul-token',
    match: (path): Match | undefined => {
      for (const [prefix, route] of routes) {
        const service = path.startsWith(prefix) ? path.slice(prefix.length) : '';
        if (service !== '' && !service.includes('/')) return { route, params: { service } };
      }
      return undefined;
    },
  };
}
