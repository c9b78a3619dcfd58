/**
 * Which Consul services an allocation has registered, kept in step with its tasks as Nomad's client
 * keeps them (`client/allocrunner/groupservice_hook.go`, `taskrunner/service_hook.go`): a task's
 * services from when it runs until it stops, again (with fresh checks) after each restart; a group's
 * from when the tasks begin until the allocation stops, untouched by task restarts, so they keep
 * their last status (a stale `passing`). A check starts at its `initial_status`, else `critical`, as
 * Consul registers a check without a status.
 */
import { createHash } from 'node:crypto';
import type { ConsulCheckStatus } from '../../lib/consul/types';
import type { Service, ServiceCheck } from '../../lib/nomad/types';
import { portOf } from '../model/checks';
import type { SimContext } from '../model/context';
import { isLive } from '../model/status';
import type { AllocRecord } from '../model/store';
import { groupOf } from '../model/tasks';
import type { CatalogCheck, CatalogService } from './catalog';
import { startCheckRuns } from './check-runs';

/** A Consul service the allocation should have registered now, and which run of its task asks for it. */
interface Wanted {
  readonly id: string;
  readonly service: Service;
  readonly task: string | undefined;
  readonly run: string;
  /** A seeded allocation has been running a while: its checks already pass. */
  readonly settled: boolean;
}

const isConsul = (service: Service) => service.Provider !== 'nomad';

/** Nomad's `MakeAllocServiceID`; a group service's task name is `group-<group>`. */
export function allocServiceId(allocationId: string, taskName: string, service: Service): string {
  return `_nomad-task-${allocationId}-${taskName}-${service.Name}-${service.PortLabel ?? ''}`;
}

/** Nomad's `MakeCheckID`: `_nomad-check-` and a SHA-1 over the service ID and the check's definition. */
function checkId(serviceId: string, check: ServiceCheck): string {
  const parts = [serviceId, check.Name, check.Type, String(check.Interval ?? 0), check.Path ?? ''];
  return `_nomad-check-${createHash('sha1').update(parts.join('\u0000')).digest('hex')}`;
}

function wantedServices(record: AllocRecord): Wanted[] {
  const { alloc, runtime } = record;
  if (!isLive(alloc) || runtime.mainStarted !== true) return [];
  const group = groupOf(record);
  const seeded = runtime.seeded === true;
  const out: Wanted[] = (group?.Services ?? []).filter(isConsul).map((service) => ({
    id: allocServiceId(alloc.ID, `group-${alloc.TaskGroup}`, service),
    service,
    task: undefined,
    run: 'group',
    settled: seeded,
  }));
  for (const task of group?.Tasks ?? []) {
    const state = alloc.TaskStates?.[task.Name];
    if (state?.State !== 'running') continue;
    for (const service of (task.Services ?? []).filter(isConsul)) {
      out.push({
        id: allocServiceId(alloc.ID, task.Name, service),
        service,
        task: task.Name,
        run: `${state.Restarts ?? 0}:${state.StartedAt ?? ''}`,
        settled: seeded && (state.Restarts ?? 0) === 0,
      });
    }
  }
  return out;
}

function nodeName(ctx: SimContext, record: AllocRecord): string {
  return ctx.store.nodes.get(record.alloc.NodeID ?? '')?.node.Name ?? record.alloc.NodeID ?? '';
}

function buildService(ctx: SimContext, record: AllocRecord, wanted: Wanted, index: number): CatalogService {
  const node = nodeName(ctx, record);
  const checks = (wanted.service.Checks ?? []).map((spec): CatalogCheck => {
    const initial = (spec.InitialStatus || 'critical') as ConsulCheckStatus;
    return {
      spec,
      cancel: undefined,
      upRuns: 0,
      countFrom: 0,
      wire: {
        Node: node,
        CheckID: checkId(wanted.id, spec),
        Name: spec.Name,
        Status: wanted.settled ? 'passing' : initial,
        Output: '',
        ServiceID: wanted.id,
        ServiceName: wanted.service.Name,
        Type: spec.Type,
        CreateIndex: index,
        ModifyIndex: index,
      },
    };
  });
  return {
    id: wanted.id,
    name: wanted.service.Name,
    allocationId: record.alloc.ID,
    task: wanted.task,
    node,
    port: portOf(record),
    run: wanted.run,
    registeredAt: ctx.clock.now(),
    createIndex: index,
    checks,
  };
}

/** Registers and deregisters the allocation's Consul services to match its tasks now. */
export function syncConsulServices(ctx: SimContext, record: AllocRecord): void {
  const { consul } = ctx;
  const wanted = wantedServices(record);
  const current = consul.ofAllocation(record.alloc.ID);
  const keep = new Set(wanted.map((w) => `${w.id}\u0000${w.run}`));
  consul.deregister(current.filter((s) => !keep.has(`${s.id}\u0000${s.run}`)).map((s) => s.id));
  const registered = new Set(current.map((s) => `${s.id}\u0000${s.run}`));
  for (const w of wanted) {
    if (registered.has(`${w.id}\u0000${w.run}`)) continue;
    const service = consul.register((index) => buildService(ctx, record, w, index));
    startCheckRuns(ctx, consul, record, service);
  }
}
