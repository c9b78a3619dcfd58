/**
 * The accounting check every fault case ends with: each planned allocation is in exactly one of
 * restarted, rescheduled (its replacement running), failed (its error reported; with
 * `-wait-healthy` also one restarted and then not healthy), or not reached (the run stopped
 * before its batch, and said why); nothing was restarted or stopped twice and no
 * replacement was stopped, read from the simulator's state and request log; the run's own
 * summary agrees with what the simulator saw; and a run that exits 0 left no planned allocation
 * unreached unless it said why (its window ended, or an answer stopped it): an unattended run
 * must never report success with work it planned left undone.
 */

import type { Allocation } from '../../../lib/nomad/types';
import type { RestartOptions } from '../../../lib/restart/options';
import {
  runWorkflow,
  type WorkflowRun,
  type WorkflowRunOptions,
} from '../../engines/local/helpers/workflow-harness';
import { type EmulatedAws, useEmulatedAws } from '../../iam/helpers/emulated-aws';
import {
  allocationsOf,
  type Harness,
  type HarnessPerTest,
  harnessPerTest,
} from '../../steps/helpers/harness';

export type Fate = 'restarted' | 'rescheduled' | 'failed' | 'not reached';

export interface Accounting {
  /** Each planned allocation's fate, by ID. */
  readonly fates: ReadonlyMap<string, Fate>;
  /** Allocations counted in two fates at once (must be empty). */
  readonly ambiguous: readonly string[];
  /** Allocations whose tasks got more than one `Restart Signaled` from this run. */
  readonly restartedTwice: readonly string[];
  /** Allocations stopped by more than one accepted stop request. */
  readonly stoppedTwice: readonly string[];
  /** Replacements (of any planned allocation) that a stop request reached. */
  readonly replacementsStopped: readonly string[];
  /** Allocations not reached by a run that exited 0 without saying why it stopped (must be empty). */
  readonly silentlyLeft: readonly string[];
  /** What the run's summary (or final error list) says, against the simulator's count. */
  readonly summary: { readonly reported: number; readonly seen: number };
  count(fate: Fate): number;
}

const STOP = /^\/v1\/allocation\/([^/]+)\/stop$/;
/** The health gate's errors (`-wait-healthy`): about the allocation after its restart. */
const HEALTH_ERROR = /: Allocation "[^"]+" (did not become healthy within|failed before it became healthy)/;

function restartSignals(allocation: Allocation | undefined, sinceNs: number): number {
  let most = 0;
  for (const state of Object.values(allocation?.TaskStates ?? {})) {
    const signals = (state.Events ?? []).filter((e) => e.Type === 'Restart Signaled' && e.Time >= sinceNs);
    most = Math.max(most, signals.length);
  }
  return most;
}

/** The running end of an allocation's replacement chain, if it has one. */
function runningReplacement(h: Harness, id: string): { chain: string[]; running: boolean } {
  const chain: string[] = [];
  let next = h.sim.control.state().allocation(id)?.NextAllocation;
  while (next) {
    chain.push(next);
    next = h.sim.control.state().allocation(next)?.NextAllocation;
  }
  const last = chain.at(-1);
  return {
    chain,
    running: last !== undefined && h.sim.control.state().allocation(last)?.ClientStatus === 'running',
  };
}

/**
 * Accounts for `planned` (the allocations the run was to restart, read before it started at
 * simulated time `startedAtMs`) after `run`.
 */
export function accountFor(
  h: Harness,
  planned: readonly Allocation[],
  run: WorkflowRun,
  startedAtMs: number,
): Accounting {
  const sinceNs = startedAtMs * 1e6;
  const stops = new Map<string, number>();
  const stopSent = new Set<string>();
  for (const entry of h.sim.control.requestLog()) {
    const id = STOP.exec(entry.path)?.[1];
    if (id !== undefined) stopSent.add(id);
    if (id !== undefined && entry.status === 200) stops.set(id, (stops.get(id) ?? 0) + 1);
  }
  const fates = new Map<string, Fate>();
  const ambiguous: string[] = [];
  const restartedTwice: string[] = [];
  const replacements = new Set<string>();
  for (const original of planned) {
    const now = h.sim.control.state().allocation(original.ID);
    const signals = restartSignals(now, sinceNs);
    if (signals > 1) restartedTwice.push(original.ID);
    const replacement = runningReplacement(h, original.ID);
    for (const id of replacement.chain) replacements.add(id);
    const errors = run.errors.filter((message) => message.includes(`"${original.ID.slice(0, 8)}"`));
    const failed = errors.length > 0;
    // With -wait-healthy an allocation restarted (or replaced) and then not healthy is failed, one
    // fate: the restart happened and the error says what came after it.
    const unhealthy = errors.length > 0 && errors.every((message) => HEALTH_ERROR.test(message));
    // Any other allocation reported failed that Nomad did restart or replace has two fates: a lie.
    // Only a replacement this run asked for (it sent a stop, whatever the answer) is its doing:
    // one Nomad placed for a disconnected or lost node is not a second fate.
    const found: Fate[] = [
      ...(signals > 0 && !unhealthy ? (['restarted'] as const) : []),
      ...(replacement.running && stopSent.has(original.ID) && !unhealthy ? (['rescheduled'] as const) : []),
      ...(failed ? (['failed'] as const) : []),
    ];
    if (found.length > 1) ambiguous.push(original.ID);
    fates.set(original.ID, found[0] ?? 'not reached');
  }
  const count = (fate: Fate) => [...fates.values()].filter((f) => f === fate).length;
  // What the run says it did: the allocations it announced, less those it reported failed.
  const announced = new Set(
    run.events.flatMap((e) => (e.type === 'allocation-restarting' ? [e.allocationId] : [])),
  );
  const reportedFailed = [...announced].filter((id) =>
    run.errors.some((message) => message.includes(`"${id.slice(0, 8)}"`)),
  ).length;
  const saidWhy = run.events.some((e) => e.type === 'window-ended' || (e.type === 'finished' && e.canceled));
  const silentlyLeft =
    run.exitCode === 0 && !saidWhy ? [...fates].filter(([, f]) => f === 'not reached').map(([id]) => id) : [];
  const output = run.result.output as { restarted?: number } | undefined;
  const done = count('restarted') + count('rescheduled');
  return {
    fates,
    ambiguous,
    restartedTwice,
    silentlyLeft,
    stoppedTwice: [...stops].filter(([, n]) => n > 1).map(([id]) => id),
    replacementsStopped: [...stops.keys()].filter((id) => replacements.has(id)),
    summary: {
      // A run that ends with errors fails the execution and has no summary output: its lines say it.
      reported: output?.restarted ?? announced.size - reportedFailed,
      seen: done,
    },
    count,
  };
}

/** The invariants that hold whatever the fault: for `expect(...).toEqual(CLEAN)`. */
/**
 * What every fault suite sets up: the handlers' AWS stores on emulators (every
 * call checked against its function's role), and one harness per test.
 */
export function faultSuite(): { harness: HarnessPerTest; aws: EmulatedAws } {
  const aws = useEmulatedAws();
  return { harness: harnessPerTest(), aws };
}

/** Runs the workflow with `options` and accounts for every allocation of the job it started with. */
export async function runAccounted(
  target: Harness,
  options: RestartOptions,
  runOptions: WorkflowRunOptions = {},
): Promise<{ run: WorkflowRun; accounting: Accounting }> {
  const planned: Allocation[] = allocationsOf(target, options.job);
  const startedAt = target.now();
  const run = await runWorkflow(target, options, runOptions);
  return { run, accounting: accountFor(target, planned, run, startedAt) };
}

export function invariantsOf(accounting: Accounting) {
  return {
    ambiguous: accounting.ambiguous,
    restartedTwice: accounting.restartedTwice,
    stoppedTwice: accounting.stoppedTwice,
    replacementsStopped: accounting.replacementsStopped,
    silentlyLeft: accounting.silentlyLeft,
    summaryAgrees: accounting.summary.reported === accounting.summary.seen,
  };
}

export const CLEAN = {
  ambiguous: [],
  restartedTwice: [],
  stoppedTwice: [],
  replacementsStopped: [],
  silentlyLeft: [],
  summaryAgrees: true,
};
