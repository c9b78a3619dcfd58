/**
 * Which Consul checks the gate waits for in an allocation, from its own job version: those of the
 * group's and its tasks' Consul services (`provider = "consul"`, Nomad's default), minus
 * `on_update = "ignore"` (`client/allochealth/tracker.go` `evaluateConsulChecks`), each under the
 * service ID and check name a Nomad client registers (lib/consul/service-ids.ts).
 */
import { consulCheckName, groupServiceId, taskServiceId } from '../../consul/service-ids';
import type { Service, TaskGroup } from '../../nomad/types';
import type { DeclaredConsulCheck } from '../../restart/health/consul-health';

/** Nomad's `on_update` values (`nomad/structs/services.go`). */
const ON_UPDATE_IGNORE = 'ignore';
const ON_UPDATE_IGNORE_WARNINGS = 'ignore_warnings';

/** A service Nomad registers in Consul: `provider = "consul"`, Nomad's default. */
const inConsul = (service: Service): boolean =>
  (service.Provider ?? '') === '' || service.Provider === 'consul';

function declaredOf(
  services: readonly Service[] | null | undefined,
  owner: DeclaredConsulCheck['owner'],
): DeclaredConsulCheck[] {
  return (services ?? []).filter(inConsul).flatMap((service) =>
    (service.Checks ?? []).flatMap((check): DeclaredConsulCheck[] => {
      const onUpdate = check.OnUpdate || service.OnUpdate || '';
      if (onUpdate === ON_UPDATE_IGNORE) return [];
      return [
        {
          service: service.Name,
          owner,
          portLabel: service.PortLabel ?? '',
          name: consulCheckName(check.Name, service.Name),
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
    ...declaredOf(group.Services, { group: group.Name }),
    ...(group.Tasks ?? []).flatMap((task) => declaredOf(task.Services, { task: task.Name })),
  ];
}

/** The Consul services (by name) whose checks the gate waits for, across `groups`. */
export function consulServiceNames(groups: readonly (TaskGroup | undefined)[]): string[] {
  return [...new Set(groups.flatMap((group) => declaredConsulChecks(group).map((c) => c.service)))].sort();
}

/** The ID Nomad registers the check's service under in allocation `allocationId` (`MakeAllocServiceID`). */
export function consulServiceId(allocationId: string, check: DeclaredConsulCheck): string {
  return 'task' in check.owner
    ? taskServiceId(allocationId, check.owner.task, check.service, check.portLabel)
    : groupServiceId(allocationId, check.owner.group, check.service, check.portLabel);
}
