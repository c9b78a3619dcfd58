/**
 * Nomad service checks on the simulated clients, as the traced agent runs them
 * (`client/allocrunner/checks_hook.go`): when an allocation starts, each check of a
 * `provider = "nomad"` service gets a `pending` result, runs half an interval later and then every
 * interval; the results outlive a task restart (so they go stale) and are purged when the
 * allocation is killed or fails, after which the endpoint answers `null`.
 */
import { createHash } from 'node:crypto';
import type { AllocCheckStatuses, Service, ServiceCheck } from '../../lib/nomad/types';
import type { SimContext } from './context';
import type { AllocRecord, SimCheck, SimCheckRun } from './store';

import { groupOf, roleOf, tasksOf } from './tasks';

/** Nomad's check interval when a job gives none is required; a missing one here runs every 10 s. */
const DEFAULT_INTERVAL_MS = 10_000;

/** Results kept per check for {@link checkHistory}. */
const HISTORY_LIMIT = 200;

function nomadChecks(record: AllocRecord): { service: Service; check: ServiceCheck; task?: string }[] {
  const group = groupOf(record);
  const out: { service: Service; check: ServiceCheck; task?: string }[] = [];
  const add = (services: Service[] | null | undefined, task?: string) => {
    for (const service of services ?? []) {
      if (service.Provider !== 'nomad') continue;
      for (const check of service.Checks ?? [])
        out.push({ service, check, ...(task === undefined ? {} : { task }) });
    }
  };
  add(group?.Services);
  for (const task of group?.Tasks ?? []) add(task.Services, task.Name);
  return out;
}

/** Nomad's check ID: a SHA-256 over the allocation, group, task and check definition. */
function checkId(record: AllocRecord, check: ServiceCheck, task: string | undefined): string {
  const parts = [record.alloc.ID, record.alloc.TaskGroup, task ?? '', check.Name, check.Type];
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** A stand-in for the allocation's dynamic port, stable per allocation (Nomad's 20000-32000 range). */
export function portOf(record: AllocRecord): number {
  return 20_000 + (Number.parseInt(record.alloc.ID.slice(0, 6), 16) % 12_000);
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Whether the service answers: its task, or every main task of the group, is running. */
export function serving(record: AllocRecord, task: string | undefined): boolean {
  const states = record.alloc.TaskStates ?? {};
  if (task !== undefined) return states[task]?.State === 'running';
  const main = tasksOf(record).filter((t) => roleOf(t) === 'main');
  return main.length > 0 && main.every((t) => states[t.Name]?.State === 'running');
}

/** What the check reports now, given whether it should pass and whether anything listens. */
function outcome(check: SimCheck, record: AllocRecord, pass: boolean, up: boolean) {
  const url = `http://127.0.0.1:${portOf(record)}${check.spec.Path ?? '/'}`;
  const refused = `dial tcp 127.0.0.1:${portOf(record)}: connect: connection refused`;
  const http = check.spec.Type === 'http';
  if (pass) return { Status: 'success', Output: http ? 'nomad: http ok' : 'nomad: tcp ok', StatusCode: 200 };
  if (!up) return { Status: 'failure', Output: http ? `nomad: Get "${url}": ${refused}` : refused };
  return http
    ? { Status: 'failure', Output: 'Internal Server Error', StatusCode: 500 }
    : { Status: 'failure', Output: refused };
}

function run(ctx: SimContext, record: AllocRecord, check: SimCheck): void {
  const up = serving(record, check.task);
  if (up) check.upRunsSinceRestart += 1;
  const rule = ctx.behaviours.checkOf(record, check.spec.Name);
  const restarted = (record.runtime.lastRestartAt ?? Number.NEGATIVE_INFINITY) >= (rule?.setAt ?? 0);
  let pass = up;
  switch (rule?.value.behaviour) {
    case 'never-passing':
      pass = false;
      break;
    case 'failing-after-restart':
      if (restarted) pass = false;
      break;
    case 'flapping': {
      // Up runs after the restart: 1 passes, 2 fails, 3 passes, 4 fails... for `flaps` failures.
      const n = check.upRunsSinceRestart;
      if (restarted && n % 2 === 0 && n / 2 <= (rule.value.flaps ?? 1)) pass = false;
      break;
    }
    default:
      break;
  }
  const { StatusCode, ...rest } = outcome(check, record, pass, up);
  const { StatusCode: _previous, ...kept } = check.result;
  // Nomad omits StatusCode when it is 0 (`json:",omitempty"`).
  check.result = {
    ...kept,
    ...rest,
    ...(StatusCode === undefined ? {} : { StatusCode }),
    Timestamp: seconds(ctx.clock.now()),
  };
  remember(ctx, check);
}

function remember(ctx: SimContext, check: SimCheck): void {
  check.history.push({ time: ctx.clock.now(), result: { ...check.result } });
  if (check.history.length > HISTORY_LIMIT) check.history.shift();
}

function schedule(ctx: SimContext, record: AllocRecord, check: SimCheck, delayMs: number): void {
  const cancel = ctx.timers.after(delayMs, () => {
    record.runtime.cancels.delete(cancel);
    if (record.runtime.checks?.get(check.result.ID) !== check) return;
    run(ctx, record, check);
    schedule(ctx, record, check, intervalOf(check.spec));
  });
  record.runtime.cancels.add(cancel);
}

const intervalOf = (check: ServiceCheck) =>
  check.Interval !== undefined && check.Interval > 0 ? check.Interval / 1e6 : DEFAULT_INTERVAL_MS;

/**
 * The checks hook's prerun: a `pending` result per Nomad check, first run after half an
 * interval. A seeded allocation (`instant`) has been running a while: its checks already passed.
 */
export function startChecks(ctx: SimContext, record: AllocRecord, instant: boolean): void {
  const specs = nomadChecks(record);
  if (specs.length === 0) return;
  const checks = new Map<string, SimCheck>();
  for (const { service, check: spec, task } of specs) {
    const id = checkId(record, spec, task);
    const check: SimCheck = {
      spec,
      service,
      task,
      upRunsSinceRestart: 0,
      history: [],
      result: {
        ID: id,
        Check: spec.Name,
        Group: record.alloc.Name ?? '',
        ...(task === undefined ? {} : { Task: task }),
        Service: service.Name,
        Mode: spec.OnUpdate === 'ignore' ? 'readiness' : 'healthiness',
        Status: instant ? 'success' : 'pending',
        Output: instant ? 'nomad: http ok' : 'nomad: waiting to run',
        ...(instant && spec.Type === 'http' ? { StatusCode: 200 } : {}),
        Timestamp: seconds(ctx.clock.now()),
      },
    };
    checks.set(id, check);
    remember(ctx, check);
  }
  record.runtime.checks = checks;
  for (const check of checks.values())
    schedule(ctx, record, check, instant ? intervalOf(check.spec) : intervalOf(check.spec) / 2);
}

/** A user restart: the checks keep running (and their last results stay), counted afresh. */
export function noteRestart(ctx: SimContext, record: AllocRecord): void {
  record.runtime.lastRestartAt = ctx.clock.now();
  for (const check of record.runtime.checks?.values() ?? []) check.upRunsSinceRestart = 0;
}

/** The checks hook's pre-kill: results purged, runs stopped (their history stays for tests). */
export function purgeChecks(record: AllocRecord): void {
  if (record.runtime.checks !== undefined) record.runtime.purgedChecks = record.runtime.checks;
  record.runtime.checks = undefined;
}

/** Every result each Nomad check of the allocation produced, by check name, oldest first. */
export function checkHistory(record: AllocRecord): Record<string, SimCheckRun[]> {
  const checks = record.runtime.checks ?? record.runtime.purgedChecks ?? new Map<string, SimCheck>();
  return Object.fromEntries([...checks.values()].map((check) => [check.spec.Name, [...check.history]]));
}

/** `GET /v1/client/allocation/:id/checks`: the latest results, or `null` when there are none. */
export function checkResults(record: AllocRecord): AllocCheckStatuses | null {
  const checks = record.runtime.checks;
  if (checks === undefined) return null;
  return Object.fromEntries([...checks].map(([id, check]) => [id, { ...check.result }]));
}
