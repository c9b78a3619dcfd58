/**
 * What tests switch on in the simulated clients (control API): how a Nomad service check answers
 * and which tasks crash as they start. Each rule names one allocation, or every allocation of a
 * job (replacements placed later included), and applies from the moment it is set.
 */
import type { AllocRecord } from './store';

/**
 * How a simulated Nomad service check answers its runs.
 * - `passing` (the default): success while the tasks it watches run, refused while they do not;
 * - `failing-after-restart`: as `passing` until the allocation's next restart, then every run fails;
 * - `flapping`: from the next restart on, runs alternate success and failure `flaps` times
 *   (default 1: success, failure, success, ...), then as `passing`;
 * - `never-passing`: every run from now on fails.
 */
export type SimCheckBehaviour =
  | { behaviour: 'passing' }
  | { behaviour: 'failing-after-restart' }
  | { behaviour: 'flapping'; flaps?: number }
  | { behaviour: 'never-passing' };

/**
 * How a check of a Consul service answers the simulated Consul agent's runs, while the service is up
 * (a service whose task is not running fails with `connection refused`, whatever the script):
 * - `passing` (the default), `warning` or `critical`: every run, with `output` or Consul's usual text;
 * - `flapping`: counted from now, the latest restart or the registration, whichever is last, runs go
 *   passing, critical, passing, ... for `flaps` criticals (default 1), then passing.
 */
export type SimConsulCheckScript =
  | { status: 'passing' | 'warning' | 'critical'; output?: string }
  | { status: 'flapping'; flaps?: number; output?: string };

/** Which allocations a rule applies to: one allocation, or every allocation of a job. */
export type SimTarget =
  | { allocationId: string; jobId?: undefined; namespace?: undefined }
  | { jobId: string; namespace?: string; allocationId?: undefined };

/** A crash as a task starts: it exits with `exitCode` (default 1) `afterMs` simulated ms (default 0) after each start. */
export interface SimCrash {
  exitCode?: number;
  afterMs?: number;
}

/** A rule and the simulated time it was set (a check's "next restart" is one after it). */
export interface Rule<T> {
  readonly value: T;
  readonly setAt: number;
}

function targetKey(target: SimTarget): string {
  return target.allocationId !== undefined
    ? `alloc\u0000${target.allocationId}`
    : `job\u0000${target.namespace ?? 'default'}\u0000${target.jobId}`;
}

function keysOf(record: AllocRecord): [string, string] {
  return [
    `alloc\u0000${record.alloc.ID}`,
    `job\u0000${record.alloc.Namespace ?? 'default'}\u0000${record.alloc.JobID}`,
  ];
}

/** The allocation's own rule named `name`, else its job's. */
function ruleOf<T>(rules: Map<string, Rule<T>>, record: AllocRecord, name: string): Rule<T> | undefined {
  for (const key of keysOf(record)) {
    const rule = rules.get(`${key}\u0000${name}`);
    if (rule !== undefined) return rule;
  }
  return undefined;
}

/** The rules in force; an allocation's own rule wins over its job's. */
export class Behaviours {
  private readonly checks = new Map<string, Rule<SimCheckBehaviour>>();
  private readonly crashes = new Map<string, Rule<SimCrash>>();
  private readonly consulChecks = new Map<string, Rule<SimConsulCheckScript>>();

  setCheck(target: SimTarget, check: string, behaviour: SimCheckBehaviour, now: number): void {
    this.checks.set(`${targetKey(target)}\u0000${check}`, { value: behaviour, setAt: now });
  }

  /** `task` undefined: every task of the allocation. */
  setCrash(target: SimTarget, task: string | undefined, crash: SimCrash, now: number): void {
    this.crashes.set(`${targetKey(target)}\u0000${task ?? ''}`, { value: crash, setAt: now });
  }

  setConsulCheck(target: SimTarget, check: string, script: SimConsulCheckScript, now: number): void {
    this.consulChecks.set(`${targetKey(target)}\u0000${check}`, { value: script, setAt: now });
  }

  checkOf(record: AllocRecord, check: string): Rule<SimCheckBehaviour> | undefined {
    return ruleOf(this.checks, record, check);
  }

  consulCheckOf(record: AllocRecord, check: string): Rule<SimConsulCheckScript> | undefined {
    return ruleOf(this.consulChecks, record, check);
  }

  crashOf(record: AllocRecord, task: string): Rule<SimCrash> | undefined {
    for (const key of keysOf(record)) {
      const rule = this.crashes.get(`${key}\u0000${task}`) ?? this.crashes.get(`${key}\u0000`);
      if (rule !== undefined) return rule;
    }
    return undefined;
  }

  clear(): void {
    this.checks.clear();
    this.crashes.clear();
    this.consulChecks.clear();
  }
}
