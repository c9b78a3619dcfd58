/**
 * Whether an allocation's Consul service checks are healthy again after a restart
 * (`-wait-healthy`), judged as Nomad's deployment health tracker judges them
 * (`client/allochealth/tracker.go` `evaluateConsulChecks`): every declared check registered,
 * `passing`, or `warning` when its `on_update` is `ignore_warnings`; `critical` never (which checks
 * are declared, minus `on_update = "ignore"`: lib/steps/health/consul-declared.ts). Consul's answer
 * is matched by the service ID Nomad registered and the check's name; node checks (`serfHealth`)
 * have no service ID and never match.
 *
 * One rule comes from restarting in place: Nomad registers a restarted task's services again with
 * the check's initial status, and a one-task restart leaves group services as they were, so a
 * `passing` counts only once the check ran since the restart: one check interval after the tasks
 * were seen started again, or once Consul showed it in another status since the restart began.
 * Pure: the step reads Consul and keeps the clock.
 */
import { goQuote } from '../../go/quote';

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
  /** Whose service it is: a task's, or the group's (Nomad registers each under its own ID). */
  readonly owner: { readonly task: string } | { readonly group: string };
  readonly portLabel: string;
  /** The check's name as Consul shows it. */
  readonly name: string;
  /** Milliseconds between two runs of the check (0: not known, a TTL check). */
  readonly intervalMs: number;
  /** `on_update = "ignore_warnings"`: `warning` counts as healthy. */
  readonly ignoreWarnings: boolean;
}

/** A check's key in the memory of statuses seen since the restart. */
const keyOf = (serviceId: string, name: string) => `${serviceId}/${name}`;

/** What {@link judgeConsulChecks} needs to know now. */
export interface ConsulView {
  /** The ID Nomad registered the check's service under for this allocation (`MakeAllocServiceID`). */
  readonly serviceIdOf: (check: DeclaredConsulCheck) => string;
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
    .map((check) => ({ check, serviceId: view.serviceIdOf(check) }))
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
