/**
 * The simulated Consul's ACLs, as far as health reads need them (Consul's `acl_filter.go`
 * `filterHealthChecks`): off by default; when on, an unknown token is refused (403 `ACL not found`),
 * and a read keeps only the checks whose node the token may read (`node_prefix`) and whose service it
 * may read (`service_prefix`), flagging the answer `X-Consul-Results-Filtered-By-ACLs: true`.
 */
import { SimHttpError } from '../errors';

/** A Consul token: `read` rules by name prefix (`""` matches every name), or a management token. */
export interface SimConsulTokenSpec {
  secret: string;
  management?: boolean;
  /** `service_prefix "<p>" { policy = "read" }` for each prefix. */
  serviceRead?: string[];
  /** `node_prefix "<p>" { policy = "read" }` for each prefix. */
  nodeRead?: string[];
}

/** The Consul ACL part of a simulation. */
export interface SimConsulAclSpec {
  enabled: boolean;
  tokens: SimConsulTokenSpec[];
  /** What a request without a token may read (Consul's anonymous token). @default - nothing */
  anonymous?: Omit<SimConsulTokenSpec, 'secret'>;
}

/** What a request may read. */
export interface ConsulReader {
  canRead(node: string, service: string): boolean;
  /**
   * Whether a filtered answer says so (`X-Consul-Results-Filtered-By-ACLs`): never to an anonymous
   * request (Consul's `agent/consul/rpc.go` `maskResultsFilteredByACLs`), so to a request without a
   * token "filtered" looks like "not registered".
   */
  readonly saysFiltered: boolean;
}

const readsName = (prefixes: readonly string[] | undefined, name: string) =>
  (prefixes ?? []).some((prefix) => name.startsWith(prefix));

function readerOf(token: Omit<SimConsulTokenSpec, 'secret'>, saysFiltered: boolean): ConsulReader {
  return {
    saysFiltered,
    canRead: (node, service) =>
      token.management === true ||
      (readsName(token.nodeRead, node) && (service === '' || readsName(token.serviceRead, service))),
  };
}

const ANYONE: ConsulReader = { canRead: () => true, saysFiltered: true };

/** The configured tokens. */
export class ConsulAcl {
  private spec: SimConsulAclSpec | undefined;

  /** Replaces the configuration (`undefined`: ACLs off). */
  public configure(spec: SimConsulAclSpec | undefined): void {
    this.spec = spec?.enabled === true ? structuredClone(spec) : undefined;
  }

  /** The ACL default policy Consul reports (`X-Consul-Default-Acl-Policy`), when ACLs are on. */
  public defaultPolicy(): string | undefined {
    return this.spec === undefined ? undefined : 'deny';
  }

  /** Resolves the request's token. @throws SimHttpError 403 `ACL not found` for an unknown token. */
  public resolve(secret: string | undefined): ConsulReader {
    const spec = this.spec;
    if (spec === undefined) return ANYONE;
    if (secret === undefined) return readerOf(spec.anonymous ?? {}, false);
    const token = spec.tokens.find((t) => t.secret === secret);
    if (token === undefined) throw new SimHttpError(403, 'ACL not found');
    return readerOf(token, true);
  }
}
