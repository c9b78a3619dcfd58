/**
 * The simulator's Consul catalog: the service instances Nomad's clients register there (one per
 * allocation and service, Nomad's `client/serviceregistration` IDs), their checks as Consul's health
 * API shows them, and every node's `serfHealth` check. Writes go through the simulator's store (its
 * `consul` table), so blocking queries wake on them and its index is Consul's `X-Consul-Index`.
 */
import type { ConsulCheckStatus, ConsulHealthCheck } from '../../lib/consul/types';
import type { ServiceCheck } from '../../lib/nomad/types';
import type { Store } from '../model/store';

/** A check as Consul's health API answers it (`api.HealthCheck`): what the client reads, and the rest. */
export interface SimConsulCheckWire extends ConsulHealthCheck {
  Notes: string;
  ServiceTags: string[];
  /** A Go duration (`2s`); `''` for a node check or a `ttl` (Nomad's script checks). */
  Interval: string;
  Timeout: string;
  ExposedPort: number;
  Definition: Record<string, never>;
}

/** One check of a registered service instance, with what the simulated Consul agent needs to run it. */
export interface CatalogCheck {
  /** What Consul's health API answers (copied out on every read). */
  readonly wire: SimConsulCheckWire;
  readonly spec: ServiceCheck;
  /** Stops the check's runs (deregistration). */
  cancel: (() => void) | undefined;
  /** Runs that found the service up since `countFrom` (a flapping script counts these). */
  upRuns: number;
  countFrom: number;
}

/** A service instance as a Nomad client registers it. */
export interface CatalogService {
  /** `_nomad-task-<alloc>-<task>-<service>-<port label>`, or `...-group-<group>-...` for a group service. */
  readonly id: string;
  readonly name: string;
  readonly allocationId: string;
  /** The task of a task service; `undefined` for a group service (it watches every main task). */
  readonly task: string | undefined;
  /** Consul's node: the Nomad client's node name. */
  readonly node: string;
  readonly port: number;
  /** Which run of the task registered it (a restarted task registers its services afresh). */
  readonly run: string;
  readonly registeredAt: number;
  readonly createIndex: number;
  readonly checks: CatalogCheck[];
}

/** Consul's agent-wide node check, which `/v1/health/service` lists beside a service's own. */
export function serfHealth(node: string, index: number): SimConsulCheckWire {
  return {
    Node: node,
    CheckID: 'serfHealth',
    Name: 'Serf Health Status',
    Status: 'passing',
    Notes: '',
    Output: 'Agent alive and reachable',
    ServiceID: '',
    ServiceName: '',
    ServiceTags: [],
    Type: '',
    Interval: '',
    Timeout: '',
    ExposedPort: 0,
    Definition: {},
    CreateIndex: index,
    ModifyIndex: index,
  };
}

/** The registered services, by ID and by allocation. */
export class ConsulCatalog {
  private readonly services = new Map<string, CatalogService>();
  private readonly byAllocation = new Map<string, Set<string>>();

  public constructor(private readonly store: Store) {}

  /**
   * Consul's index for health reads: the whole catalog's, as a real agent answers (a blocking read of
   * one service also wakes on another's change, with its own answer unchanged).
   */
  public index(): number {
    return this.store.last('consul');
  }

  /** Every registered instance of `name`. */
  public instancesOf(name: string): CatalogService[] {
    return [...this.services.values()].filter((s) => s.name === name);
  }

  /** The instances registered for one allocation. */
  public ofAllocation(allocationId: string): CatalogService[] {
    return [...(this.byAllocation.get(allocationId) ?? [])].flatMap((id) => this.services.get(id) ?? []);
  }

  /**
   * Adds the instance `id`, or registers it again in place (Nomad re-registers under the same ID: the
   * `CreateIndex` stays, the checks start over). `build` gets the write's index and the instance's
   * `CreateIndex`.
   */
  public register(id: string, build: (index: number, createIndex: number) => CatalogService): CatalogService {
    return this.store.write(['consul'], (index) => {
      const service = build(index, this.services.get(id)?.createIndex ?? index);
      this.drop(id);
      this.services.set(id, service);
      let ids = this.byAllocation.get(service.allocationId);
      if (ids === undefined) {
        ids = new Set();
        this.byAllocation.set(service.allocationId, ids);
      }
      ids.add(id);
      return service;
    });
  }

  /** Removes instances (their check runs stop) in one write. */
  public deregister(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.store.write(['consul'], () => {
      for (const id of ids) this.drop(id);
    });
  }

  /**
   * A check run's result. Only a new status reaches the catalog at once; the agent defers an output
   * change under the same status (`check_update_interval`, 5 minutes), which is not modelled: such a
   * change is never shown.
   */
  public update(check: CatalogCheck, status: ConsulCheckStatus, output: string): void {
    if (check.wire.Status === status) return;
    this.store.write(['consul'], (index) => {
      Object.assign(check.wire, { Status: status, Output: output, ModifyIndex: index });
    });
  }

  /** Forgets everything without writing (the simulator's reset). */
  public clear(): void {
    for (const id of [...this.services.keys()]) this.drop(id);
  }

  private drop(id: string): void {
    const service = this.services.get(id);
    if (service === undefined) return;
    for (const check of service.checks) check.cancel?.();
    this.services.delete(id);
    this.byAllocation.get(service.allocationId)?.delete(id);
  }
}
