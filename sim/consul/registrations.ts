/**
 * Which Consul services an allocation has registered, kept in step with its tasks as Nomad's client
 * keeps them (`client/allocrunner/groupservice_hook.go`, `taskrunner/service_hook.go`): a task's
 * services from when it runs until it stops, again (with fresh checks) after each restart; a group's
 * from when the tasks begin until the allocation stops, untouched by task restarts, so they keep
 * their last status (a stale `passing`). A check starts at its `initial_status`, else `critical`, as
 * Consul registers a check without a status.
 */
import { createHash } from 'node:crypto';
import { consulCheckName, groupServiceId, taskServiceId } from '../../lib/consul/service-ids';
import type { ConsulCheckStatus } from '../../lib/consul/types';
import type { Service, ServiceCheck } from '../../lib/nomad/types';
import { formatGoDuration } from '../duration';
import { portOf } from '../model/checks';
import type { SimContext } from '../model/context';
import { isLive } from '../model/status';
import type { AllocRecord } from '../model/store';
import { groupOf } from '../model/tasks';
import type { CatalogCheck } from './catalog';
import { outputOf, startCheckRuns } from './check-runs';

/** A Consul service the allocation should have registered now, and which run of its task asks for it. */
interface Wanted {
  readonly id: string;
  readonly service: Service;
  readonly task: string | undefined;
  /** The run that registers it; `undefined` keeps what is registered (a task between its kill and its restart). */
  readonly run: string | undefined;
  /** A seeded allocation's first run has been going a while: its checks already pass. */
  readonly settled: boolean;
}

const isConsul = (service: Service) => service.Provider !== 'nomad';

/** Nomad's `MakeCheckID`: `_nomad-check-` and a hash of the service ID and the check's definition. */
function checkId(serviceId: string, check: ServiceCheck): string {
  const parts = [serviceId, check.Name, check.Type, String(check.Interval ?? 0), check.Path ?? ''];
  return `_nomad-check-${createHash('sha256').update(parts.join('\u0000')).digest('hex')}`;
}

function wantedServices(record: AllocRecord): Wanted[] {
  const { alloc, runtime } = record;
  if (!isLive(alloc) || runtime.mainStarted !== true) return [];
  const group = groupOf(record);
  const seeded = runtime.seeded === true;
  const groupRun = runtime.groupServiceRuns ?? 0;
  const out: Wanted[] = (group?.Services ?? []).filter(isConsul).map((service) => ({
    id: groupServiceId(alloc.ID, alloc.TaskGroup, service.Name, service.PortLabel ?? ''),
    service,
    task: undefined,
    run: `group:${groupRun}`,
    settled: seeded && groupRun === 0,
  }));
  for (const task of group?.Tasks ?? []) {
    const state = alloc.TaskStates?.[task.Name];
    const restarts = state?.Restarts ?? 0;
    const restarting = state?.State === 'pending' && restarts > 0;
    if (state?.State !== 'running' && !restarting) continue;
    for (const service of (task.Services ?? []).filter(isConsul)) {
      out.push({
        id: taskServiceId(alloc.ID, task.Name, service.Name, service.PortLabel ?? ''),
        service,
        task: task.Name,
        run: restarting ? undefined : `${restarts}:${state?.StartedAt ?? ''}`,
        settled: seeded && restarts === 0,
      });
    }
  }
  return out;
}

function nodeName(ctx: SimContext, record: AllocRecord): string {
  return ctx.store.nodes.get(record.alloc.NodeID ?? '')?.node.Name ?? record.alloc.NodeID ?? '';
}

const goDuration = (ns: number | undefined) =>
  ns === undefined || ns <= 0 ? '' : formatGoDuration(ns / 1e6);

function buildCheck(
  record: AllocRecord,
  wanted: Wanted,
  spec: ServiceCheck,
  indexes: { index: number; createIndex: number },
  node: string,
): CatalogCheck {
  // Consul knows a script check only as a TTL that Nomad updates: no interval of its own.
  const ttl = spec.Type === 'script';
  const status = wanted.settled ? 'passing' : ((spec.InitialStatus || 'critical') as ConsulCheckStatus);
  return {
    spec,
    cancel: undefined,
    upRuns: 0,
    countFrom: 0,
    wire: {
      Node: node,
      CheckID: checkId(wanted.id, spec),
      Name: consulCheckName(spec.Name, wanted.service.Name),
      Status: status,
      Notes: '',
      Output: wanted.settled && !ttl ? outputOf(spec, portOf(record), 'passing', true) : '',
      ServiceID: wanted.id,
      ServiceName: wanted.service.Name,
      ServiceTags: [],
      Type: ttl ? 'ttl' : spec.Type,
      Interval: ttl ? '' : goDuration(spec.Interval ?? 10e9),
      Timeout: goDuration(spec.Timeout),
      ExposedPort: 0,
      Definition: {},
      CreateIndex: indexes.createIndex,
      ModifyIndex: indexes.index,
    },
  };
}

/** Registers, registers again and deregisters the allocation's Consul services to match its tasks now. */
export function syncConsulServices(ctx: SimContext, record: AllocRecord): void {
  const { consul } = ctx;
  const wanted = wantedServices(record);
  const current = new Map(consul.ofAllocation(record.alloc.ID).map((s) => [s.id, s]));
  const wantedIds = new Set(wanted.map((w) => w.id));
  consul.deregister([...current.keys()].filter((id) => !wantedIds.has(id)));
  for (const w of wanted) {
    const run = w.run;
    if (run === undefined || current.get(w.id)?.run === run) continue;
    const node = nodeName(ctx, record);
    const service = consul.register(w.id, (index, createIndex) => ({
      id: w.id,
      name: w.service.Name,
      allocationId: record.alloc.ID,
      task: w.task,
      node,
      port: portOf(record),
      run,
      registeredAt: ctx.clock.now(),
      createIndex,
      checks: (w.service.Checks ?? []).map((spec) =>
        buildCheck(record, w, spec, { index, createIndex }, node),
      ),
    }));
    startCheckRuns(ctx, consul, record, service);
  }
}
