/**
 * ACL model (`nomad job restart -help`): off by default; when on, a token's secret maps to capabilities per
 * namespace (`list-jobs`, `read-job`, `alloc-lifecycle`, `submit-job`, `evaluate-job`) and
 * variables capabilities per namespace and path, or to a management token that may do anything.
 * No token means the anonymous policy.
 */
import { SimHttpError } from './errors';

/** Capabilities the simulator checks. */
export type AclCapability = 'list-jobs' | 'read-job' | 'alloc-lifecycle' | 'submit-job' | 'evaluate-job';

/** A token in a scenario. Namespace keys may be `*` (every namespace). */
export interface AclTokenSpec {
  secret: string;
  name?: string;
  management?: boolean;
  /** Capabilities per namespace, e.g. `{ "default": ["read-job", "alloc-lifecycle"] }`. */
  namespaces?: Record<string, string[]>;
  /**
   * Nomad's `node { policy = "read" }` (`node:read`), needed for `/v1/nodes`, `/v1/node/:id` and
   * `/v1/node/:id/allocations` when ACLs are on.
   */
  nodeRead?: boolean;
  /**
   * Nomad's `node_pool "<name>" { policy = "read" }` rules: a policy per pool name or glob (`*`
   * matches any run of characters), the most specific rule winning as in Nomad's ACL (an exact
   * name, then the glob with the most literal characters).
   */
  nodePools?: Record<string, 'read' | 'write' | 'deny'>;
  /**
   * Variables capabilities (`read`, `write`, `list`, `destroy`, `deny`) per namespace and path
   * pattern (`*` matches any run of characters, in either), e.g.
   * `{ "default": { "nomad-restart/locks/*": ["read", "write"] } }`. As in Nomad, one rule decides
   * for a variable (the exact one, else the closest glob), and `write` implies neither `read` nor
   * `destroy`.
   */
  variables?: Record<string, Record<string, string[]>>;
}

/** Variables capabilities the simulator checks. */
export type VariablesCapability = 'read' | 'write' | 'list' | 'destroy';

const globRegExp = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/**
 * The capabilities of the variables rule that decides for `path` in `namespace`: Nomad keys each
 * rule `<namespace>\0<path>`; an exact key wins, else among the globs that match the one with the
 * smallest `len(name) - len(glob) + count("*")` (acl/acl.go `findAllMatchingWildcards`), the first
 * written on a tie.
 */
function closestVariablesRule(
  rules: Record<string, Record<string, string[]>>,
  namespace: string,
  path: string,
): string[] | undefined {
  const name = `${namespace}\u0000${path}`;
  let best: { difference: number; caps: string[] } | undefined;
  for (const [nsPattern, byPath] of Object.entries(rules)) {
    for (const [pathPattern, caps] of Object.entries(byPath)) {
      const key = `${nsPattern}\u0000${pathPattern}`;
      if (!key.includes('*')) {
        if (key === name) return caps;
        continue;
      }
      if (!globRegExp(key).test(name)) continue;
      const difference = name.length - key.length + key.split('*').length - 1;
      if (best === undefined || difference < best.difference) best = { difference, caps };
    }
  }
  return best?.caps;
}

/** The ACL part of a scenario. */
export interface AclSpec {
  enabled: boolean;
  tokens: AclTokenSpec[];
  /** The anonymous policy: capabilities per namespace for requests without a token. */
  anonymous?: Record<string, string[]>;
}

/** Who is asking: a token, the anonymous policy, or anyone when ACLs are off. */
export type Principal = { kind: 'anyone' } | { kind: 'token'; token: AclTokenSpec };

const PERMISSION_DENIED = 'Permission denied';

export class Acl {
  private enabled = false;
  private tokens = new Map<string, AclTokenSpec>();
  private anonymous: AclTokenSpec = { secret: '', namespaces: {} };

  /** Replaces the ACL configuration (undefined: ACLs off). */
  configure(spec: AclSpec | undefined): void {
    this.enabled = spec?.enabled ?? false;
    this.tokens = new Map((spec?.tokens ?? []).map((t) => [t.secret, t]));
    this.anonymous = { secret: '', name: 'anonymous', namespaces: spec?.anonymous ?? {} };
  }

  isEnabled(): boolean {
    return this.enabled;
  }

  /**
   * Authenticates a request.
   * @throws SimHttpError 403 `Permission denied` for an unknown token when ACLs are on.
   */
  resolve(secret: string | undefined): Principal {
    if (!this.enabled) return { kind: 'anyone' };
    if (!secret) return { kind: 'token', token: this.anonymous };
    const token = this.tokens.get(secret);
    if (!token) throw new SimHttpError(403, PERMISSION_DENIED);
    return { kind: 'token', token };
  }

  allowed(principal: Principal, namespace: string, capability: AclCapability): boolean {
    if (principal.kind === 'anyone' || principal.token.management) return true;
    const grants = principal.token.namespaces ?? {};
    return [grants[namespace], grants['*']].some((caps) => caps?.includes(capability));
  }

  /**
   * Whether some namespace rule of the principal grants `capability`, existing namespace or not:
   * Nomad's `AllowNsOp` for the `*` sentinel (`anyNamespaceAllowsOp`).
   */
  anyNamespaceAllows(principal: Principal, capability: AclCapability): boolean {
    if (principal.kind === 'anyone' || principal.token.management) return true;
    return Object.values(principal.token.namespaces ?? {}).some((caps) => caps.includes(capability));
  }

  /** Whether the principal has any capability in `namespace` (Nomad's `AllowNamespace`). */
  allowedNamespace(principal: Principal, namespace: string): boolean {
    if (principal.kind === 'anyone' || principal.token.management) return true;
    const { namespaces = {}, variables = {} } = principal.token;
    return (
      [namespaces[namespace], namespaces['*']].some((caps) => (caps?.length ?? 0) > 0) ||
      [variables[namespace], variables['*']].some((byPath) => Object.keys(byPath ?? {}).length > 0)
    );
  }

  /** @throws SimHttpError 403 `Permission denied` unless the principal has one of `capabilities`. */
  require(principal: Principal, namespace: string, ...capabilities: AclCapability[]): void {
    if (!capabilities.some((c) => this.allowed(principal, namespace, c))) {
      throw new SimHttpError(403, PERMISSION_DENIED);
    }
  }

  /**
   * Whether the principal counts as a management token: with ACLs off every request does (so a
   * variable's lock shows to every reader there, and to management tokens only with ACLs on).
   */
  isManagement(principal: Principal): boolean {
    return principal.kind === 'anyone' || principal.token.management === true;
  }

  /**
   * Whether the principal has `capability` on the variable at `path` in `namespace`. As Nomad's
   * `matchingVariablesCapabilitySet` (acl/acl.go), ONE rule decides, never a union: the rule naming
   * this namespace and path exactly, else the closest matching glob (`*` anywhere, in the namespace
   * or the path), so a narrower rule takes away what a broader one gives.
   */
  allowedVariable(
    principal: Principal,
    namespace: string,
    path: string,
    capability: VariablesCapability,
  ): boolean {
    if (principal.kind === 'anyone' || principal.token.management) return true;
    const caps = closestVariablesRule(principal.token.variables ?? {}, namespace, path);
    // As Nomad's `expandVariablesCapabilities`: `deny` is all there is; `read` brings `list`.
    if (caps === undefined || caps.includes('deny')) return false;
    return caps.includes(capability) || (capability === 'list' && caps.includes('read'));
  }

  /** @throws SimHttpError 403 `Permission denied` unless the principal has `capability` on the variable. */
  requireVariable(
    principal: Principal,
    namespace: string,
    path: string,
    capability: VariablesCapability,
  ): void {
    if (!this.allowedVariable(principal, namespace, path, capability))
      throw new SimHttpError(403, PERMISSION_DENIED);
  }

  /** Whether the principal may read the node pool `pool` (`node_pool:read`). */
  allowedNodePool(principal: Principal, pool: string): boolean {
    if (principal.kind === 'anyone' || principal.token.management) return true;
    const rules = Object.entries(principal.token.nodePools ?? {});
    const exact = rules.find(([pattern]) => pattern === pool);
    const globs = rules
      .filter(([pattern]) => pattern.includes('*') && globRegExp(pattern).test(pool))
      .sort(([a], [b]) => b.replaceAll('*', '').length - a.replaceAll('*', '').length);
    const policy = (exact ?? globs[0])?.[1];
    return policy === 'read' || policy === 'write';
  }

  /** @throws SimHttpError 403 `Permission denied` unless the principal may read the node pool. */
  requireNodePoolRead(principal: Principal, pool: string): void {
    if (!this.allowedNodePool(principal, pool)) throw new SimHttpError(403, PERMISSION_DENIED);
  }

  /** @throws SimHttpError 403 unless the principal may read nodes. */
  requireNodeRead(principal: Principal): void {
    if (principal.kind === 'anyone' || principal.token.management || principal.token.nodeRead) return;
    throw new SimHttpError(403, PERMISSION_DENIED);
  }
}
