/**
 * `NomadClient`: the one entry to Nomad's HTTP API, its endpoint families, and a config that never logs a secret.
 */
import { inspect } from 'node:util';
import { resolveBackoff } from '../http/retry';
import { Allocations } from './allocations';
import type { NomadClientConfig } from './config';
import { Evaluations } from './evaluations';
import { Jobs } from './jobs';
import { Namespaces } from './namespaces';
import { NodePools } from './node-pools';
import { Nodes } from './nodes';
import { buildConnection } from './private/agent';
import { Requester } from './private/requester';
import { DEFAULT_REQUEST_MS, Transport } from './private/transport';
import { Variables } from './variables';

const REDACTED = '<redacted>';

/** A copy of `config` safe to log: the token and basic-auth password are replaced. */
export function redactConfig(config: NomadClientConfig): NomadClientConfig {
  const copy: NomadClientConfig = {
    ...config,
    address: config.address.replace(/\/\/[^/@]*@/, `//${REDACTED}@`),
  };
  if (config.token !== undefined) copy.token = REDACTED;
  if (config.httpAuth !== undefined)
    copy.httpAuth = { username: config.httpAuth.username, password: REDACTED };
  return copy;
}

/** A frozen copy of `config` whose JSON and `util.inspect` forms are redacted, so logging it leaks nothing. */
function guarded(config: NomadClientConfig): NomadClientConfig {
  const copy = { ...config };
  Object.defineProperty(copy, 'toJSON', { value: () => redactConfig(config), enumerable: false });
  Object.defineProperty(copy, inspect.custom, { value: () => redactConfig(config), enumerable: false });
  return Object.freeze(copy);
}

/**
 * Typed client of the Nomad HTTP API: the only code in this project that speaks HTTP to
 * Nomad. Split by endpoint family like Nomad's `api` package: `client.jobs().info(id)`.
 */
export class NomadClient {
  /** The configuration. Holds the token: its JSON and inspect forms are redacted, but never log its fields. */
  public readonly config: NomadClientConfig;
  private readonly transport: Transport;
  private readonly http: Requester;

  private constructor(config: NomadClientConfig, transport: Transport, http: Requester) {
    this.config = guarded(config);
    this.transport = transport;
    this.http = http;
  }

  /**
   * Validates config (address URL, readable CA/cert files, NOMAD_HTTP_AUTH) and builds the
   * connection pool (Node's own HTTP agents). Throws `NomadClientInitError` whose message is
   * `Error initializing client: <reason>`. No request is made.
   */
  public static create(config: NomadClientConfig): NomadClient {
    const connection = buildConnection(config);
    const transport = new Transport(
      connection,
      config.token,
      config.timeouts?.requestMs ?? DEFAULT_REQUEST_MS,
      config.onRequest,
      config.observer,
    );
    const http = new Requester(transport, resolveBackoff(config.retry), config.namespace, config.region);
    return new NomadClient(config, transport, http);
  }

  /**
   * A client for another namespace sharing the same connection pool (after prefix
   * resolution). An empty namespace means none is sent (Nomad's `default`).
   */
  public withNamespace(namespace: string): NomadClient {
    const { namespace: _previous, ...rest } = this.config;
    const config: NomadClientConfig = namespace === '' ? rest : { ...rest, namespace };
    return new NomadClient(config, this.transport, this.http.withNamespace(namespace));
  }

  /**
   * A client for another region sharing the same connection pool: every request carries
   * `region` (the execution input's region, which a console run gives without any flag).
   */
  public withRegion(region: string): NomadClient {
    if (region === '' || region === this.config.region) return this;
    return new NomadClient({ ...this.config, region }, this.transport, this.http.withRegion(region));
  }

  /** Job endpoints. */
  public jobs(): Jobs {
    return new Jobs(this.http);
  }

  /** Allocation endpoints. */
  public allocations(): Allocations {
    return new Allocations(this.http);
  }

  /** Evaluation endpoints. */
  public evaluations(): Evaluations {
    return new Evaluations(this.http);
  }

  /** Node endpoints. */
  public nodes(): Nodes {
    return new Nodes(this.http);
  }

  /** Namespace endpoints. */
  public namespaces(): Namespaces {
    return new Namespaces(this.http);
  }

  /** Node pool endpoints. */
  public nodePools(): NodePools {
    return new NodePools(this.http);
  }

  /** Variables endpoints (the job lock of `nomad-restart`). */
  public variables(): Variables {
    return new Variables(this.http);
  }

  /** Closes the connection pool shared with every `withNamespace` client; in-flight requests finish first. */
  public close(): Promise<void> {
    return this.transport.close();
  }

  /** Redacted form for `JSON.stringify`. */
  public toJSON(): { config: NomadClientConfig } {
    return { config: redactConfig(this.config) };
  }

  /** Redacted form for `console.log` / `util.inspect`. */
  public [inspect.custom](): string {
    return `NomadClient ${inspect(redactConfig(this.config))}`;
  }
}
