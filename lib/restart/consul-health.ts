/**
 * Whether an allocation's Consul service checks are healthy again after a restart
 * (`-wait-healthy`), judged as Nomad's deployment health tracker judges them
 * (`client/allochealth/tracker.go` `evaluateConsulChecks`): every declared check registered,
 * `passing`, or `warning` when its `on_update` is `ignore_warnings`; `critical` never. Checks with
 * `on_update = "ignore"` are not waited for. Nomad registers each service under the ID of
 * `client/serviceregistration/id.go` `MakeAllocServiceID` (group services under the task name
 * `group-<group>`, `client/allocrunner/taskrunner/check_restart_hook.go`), so Consul's answer is
 * matched by service ID and check name; node checks (`serfHealth`) have no service ID and never match.
 *
 * One rule comes from restarting in place: Nomad registers a restarted task's services again with
 * the check's initial status, and a one-task restart leaves group services as they were, so a
 * `passing` counts only once the check ran since the restart: one check interval after the tasks
 * were seen started again, or once Consul showed it in another status since the restart began.
 * Pure: the step reads Consul and keeps the clock.
 */
import type { Service, ServiceCheck, TaskGroup } from '../nomad/types';
import { goQuote } from './go-quote';

/** The part of Consul's `/v1/health/checks/<service>` entries the judgement reads. */
export interface ConsulCheckState {
  readonly ServiceID: string;
  readonly Name: string;
  readonly Status: string;
  readonly Output: string;
}

/** What the gate reads Consul with: `lib/consul`'s `ConsulClient`, structurally (its errors name its address). */
export interface ConsulChecksReader {
  serviceChecks(
    service: string,
    opts?: { index?: string; wait?: string; signal?: AbortSignal },
  ): Promise<{ checks: readonly ConsulCheckState[]; index: string; filteredByAcls: boolean }>;
}

/** One Consul check the gate waits for, declared on a service of the allocation's job version. */
export interface DeclaredConsulCheck {
  /** The Consul service name (what `/v1/health/checks/<service>` is read by). */
  readonly service: string;
  /** The service ID's task part: the task's name, or `group-<group>` for a group service. */
  readonly owner: string;
  readonly portLabel: string;
  /** The check's name as Consul shows it. */
  readonly name: string;
  /** Milliseconds between two runs of the check (0: not known, a TTL check). */
  readonly intervalMs: number;
  /** `on_update = "ignore_warnings"`: `warning` counts as healthy. */
  readonly ignoreWarnings: boolean;
}

/** Nomad's `on_update` values (`nomad/structs/services.go`). */
const ON_UPDATE_IGNORE = 'ignore';
const ON_UPDATE_IGNORE_WARNINGS = 'ignore_warnings';

/** A service Nomad registers in Consul: `provider = "consul"`, Nomad's default. */
const inConsul = (service: Service): boolean =>
  (service.Provider ?? '') === '' || service.Provider === 'consul';

/**
 * The check's name as Nomad registers it: unnamed checks get `service: "<name>" check`
 * (`nomad/structs/services.go` `ServiceCheck.Canonicalize`).
 */
const checkName = (service: Service, check: ServiceCheck): string =>
  check.Name !== '' && check.Name !== undefined ? check.Name : `service: ${goQuote(service.Name)} check`;

function declaredOf(services: readonly Service[] | null | undefined, owner: string): DeclaredConsulCheck[] {
  return (services ?? []).filter(inConsul).flatMap((service) =>
    (service.Checks ?? []).flatMap((check): DeclaredConsulCheck[] => {
      const onUpdate = check.OnUpdate || service.OnUpdate || '';
      if (onUpdate === ON_UPDATE_IGNORE) return [];
      return [
        {
          service: service.Name,
          owner,
          portLabel: service.PortLabel ?? '',
          name: checkName(service, check),
          intervalMs: (check.Interval ?? 0) / 1e6,
          ignoreWarnings: onUpdate === ON_UPDATE_IGNORE_WARNINGS,
        },
      ];
    }),
  );
}

/**
 * The Consul checks the gate waits for in an allocation of `group` (its own job version): those
 * of the group's and its tasks' Consul services, minus `on_update = "ignore"`.
 */
export function declaredConsulChecks(group: TaskGroup | undefined): DeclaredConsulCheck[] {
  if (group === undefined) return [];
  return [
    ...declaredOf(group.Services, `group-${group.Name}`),
    ...(group.Tasks ?? []).flatMap((task) => declaredOf(task.Services, task.Name)),
  ];
}

/** The Consul services (by name) whose checks the gate waits for, across `groups`. */
export function consulServiceNames(groups: readonly (TaskGroup | undefined)[]): string[] {
  return [...new Set(groups.flatMap((group) => declaredConsulChecks(group).map((c) => c.service)))].sort();
}

/** `_nomad-task-<allocID>-<task or group-<group>>-<service>-<port label>` (`MakeAllocServiceID`). */
export function consulServiceId(allocationId: string, check: DeclaredConsulCheck): string {
  return `_nomad-task-${allocationId}-${check.owner}-${check.service}-${check.portLabel}`;
}

/** A check's key in the memory of statuses seen since the restart. */
const keyOf = (serviceId: string, name: string) => `${serviceId}/${name}`;

/** What {@link judgeConsulChecks} needs to know now. */
export interface ConsulView {
  readonly allocationId: string;
  readonly declared: readonly DeclaredConsulCheck[];
  /** Consul's latest answers for the services of `declared`, in any order. */
  readonly checks: readonly ConsulCheckState[];
  /**
   * Unix ms (the judge's clock) when the tasks were first seen started again: Consul's and Nomad's
   * clocks are not ours, and a start seen late only makes the wait a little longer.
   */
  readonly tasksStartedMs: number;
  readonly now: number;
  /** Checks (by key) Consul showed not healthy since the restart: their next `passing` is fresh. */
  readonly seenNotHealthy: readonly string[];
}

/** The verdict on an allocation's Consul checks, and the memory to judge the next answer with. */
export interface ConsulVerdict {
  readonly health:
    | { readonly kind: 'passing'; readonly checks: number }
    | { readonly kind: 'unhealthy'; readonly reason: string };
  readonly seenNotHealthy: string[];
}

/** Judges an allocation's Consul checks now (see the module's comment for the rules). */
export function judgeConsulChecks(view: ConsulView): ConsulVerdict {
  const seen = new Set(view.seenNotHealthy);
  const reasons: string[] = [];
  const declared = [...view.declared]
    .map((check) => ({ check, serviceId: consulServiceId(view.allocationId, check) }))
    .sort((a, b) => (keyOf(a.serviceId, a.check.name) < keyOf(b.serviceId, b.check.name) ? -1 : 1));
  for (const { check, serviceId } of declared) {
    const key = keyOf(serviceId, check.name);
    const state = view.checks.find((c) => c.ServiceID === serviceId && c.Name === check.name);
    const quoted = `Consul check ${goQuote(check.name)} of service ${goQuote(check.service)}`;
    if (state === undefined) {
      reasons.push(`${quoted} is not registered`);
      continue;
    }
    const healthy = state.Status === 'passing' || (state.Status === 'warning' && check.ignoreWarnings);
    if (!healthy) {
      seen.add(key);
      const output = state.Output.trim() === '' ? '' : `: ${state.Output.trim()}`;
      reasons.push(`${quoted} is ${goQuote(state.Status)}${output}`);
      continue;
    }
    if (!seen.has(key) && view.now < view.tasksStartedMs + check.intervalMs)
      reasons.push(`${quoted} has not run since the restart`);
  }
  const seenNotHealthy = [...seen].sort();
  const [reason] = reasons;
  if (reason !== undefined) return { health: { kind: 'unhealthy', reason }, seenNotHealthy };
  return { health: { kind: 'passing', checks: declared.length }, seenNotHealthy };
}
