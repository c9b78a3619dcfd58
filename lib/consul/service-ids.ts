/**
 * How a Nomad client names what it registers in Consul, so that an allocation's services and
 * checks can be found in Consul's answers: Nomad's `client/serviceregistration/id.go`
 * `MakeAllocServiceID` and `nomad/structs/services.go` `ServiceCheck.Canonicalize`.
 */

/** `_nomad-task-<alloc>-<task>-<service>-<port label>`: the ID of a task's service. */
export function taskServiceId(
  allocationId: string,
  task: string,
  service: string,
  portLabel: string,
): string {
  return `_nomad-task-${allocationId}-${task}-${service}-${portLabel}`;
}

/** `_nomad-task-<alloc>-group-<group>-<service>-<port label>`: the ID of a group's service. */
export function groupServiceId(
  allocationId: string,
  group: string,
  service: string,
  portLabel: string,
): string {
  return taskServiceId(allocationId, `group-${group}`, service, portLabel);
}

/** A check's name in Consul: its own, or the one Nomad gives an unnamed check (`service: "web" check`). */
export function consulCheckName(checkName: string | undefined, service: string): string {
  return checkName !== undefined && checkName !== ''
    ? checkName
    : `service: ${JSON.stringify(service)} check`;
}
