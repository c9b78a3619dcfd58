/**
 * The simulator's Consul catalog: the service instances Nomad's clients register there (one per
 * allocation and service, Nomad's `client/serviceregistration` IDs), their checks as Consul's health
 * API shows them, and every node's `serfHealth` check. Writes go through the simulator's store (its
 * `consul` table), so blocking queries wake on them and its index is Consul's `X-Consul-Index`.
 */
import type { ConsulCheckStatus, ConsulHealthCheck } from '../../lib/consul/types';
import type { ServiceCheck } from '../../lib/nomad/types';
import type { Store } from '../model/store';

/** One check of a registered service instance, with what the simulated Consul agent needs to run it. */
export interface CatalogCheck {
  /** What Consul's health API answers (copied out on every read). */
  readonly wire: ConsulHealthCheck;
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
export function serfHealth(node: string, index: number): ConsulHealthCheck {
  return {
    Node: node,
    CheckID: 'serfHealth',
    Name: 'Serf Health Status',
    Status: 'passing',
    Output: 'Agent alive and reachable',
    ServiceID: '',
    ServiceName: '',
    Type: '',
    CreateIndex: index,
    ModifyIndex: index,
  };
}

/** The registered services, by ID and by allocation. */
export class ConsulCatalog {
  private readonly services = new Map<string, CatalogService>();
  private readonly byAllocation = new Map<string, Set<string>>();

  public constructor(private readonly store: Store) {}

  /** Consul's index for health reads (the `consul` table's). */
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

  /** Adds (or replaces) an instance and its checks at a new index; `build` receives that index. */
  public register(build: (index: number) => CatalogService): CatalogService {
    return this.store.write(['consul'], (index) => {
      const service = build(index);
      this.drop(service.id);
      this.services.set(service.id, service);
      let ids = this.byAllocation.get(service.allocationId);
      if (ids === undefined) {
        ids = new Set();
        this.byAllocation.set(service.allocationId, ids);
      }
      ids.add(service.id);
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

  /** A check run's result; written (and blocking queries woken) only when status or output changed. */
  public update(check: CatalogCheck, status: ConsulCheckStatus, output: string): void {
    if (check.wire.Status === status && check.wire.Output === output) return;
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
