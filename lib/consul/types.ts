/** What Consul's health API answers, in its own PascalCase JSON field names. */

/** A check's status as Consul's health API reports it (`api.HealthPassing` ... `api.HealthMaint`). */
export type ConsulCheckStatus = 'passing' | 'warning' | 'critical' | 'maintenance';

/** One entry of `GET /v1/health/checks/<service>` (Consul's `api.HealthCheck`, as on the wire). */
export interface ConsulHealthCheck {
  Node: string;
  CheckID: string;
  Name: string;
  Status: ConsulCheckStatus;
  Output: string;
  /** The service instance's ID (Nomad's `_nomad-task-...`); empty for a node check (`serfHealth`). */
  ServiceID: string;
  ServiceName: string;
  /** `http`, `tcp`, `script`, `ttl`, ...; empty for a node check. */
  Type: string;
  CreateIndex: number;
  ModifyIndex: number;
}

/** A health read with Consul's query metadata. */
export interface ConsulChecksAnswer {
  checks: ConsulHealthCheck[];
  /** `X-Consul-Index`: pass it back as `index` to block until something changes. `''` if absent. */
  index: string;
  /** `X-Consul-Results-Filtered-By-ACLs: true`: the token may not read some of the results. */
  filteredByAcls: boolean;
}

/** Options of {@link ConsulClient.serviceChecks}. */
export interface ConsulQueryOptions {
  /** Blocking query: hold until Consul's index for the result passes this (`X-Consul-Index` of a previous answer). */
  index?: string;
  /** Upper bound of the hold, a Go duration (`30s`). Consul's default 5m, its maximum 10m. */
  wait?: string;
  /** Gives the request (and any retry backoff) up with `ConsulAbortedError`. */
  signal?: AbortSignal;
}
