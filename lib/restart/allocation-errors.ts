/**
 * Errors of one allocation in a batch (a failed restart, stop or evaluation, a placement
 * failure, a replacement that never ran) and the batch error list they end up in. Messages are
 * Nomad's, word for word.
 *
 * The one string rule kept from upstream: a batch whose error text contains
 * `Permission denied` is unrecoverable (see {@link isBatchUnrecoverable}).
 */

import { goQuote } from '../go/quote';
import { PERMISSION_DENIED } from '../nomad/errors';
import type { AllocationMetric } from '../nomad/types';
import { errorText, RestartError } from './errors';
import { displayId, type IdDisplay } from './ids';

const sortedEntries = (map: Record<string, number> | null | undefined): [string, number][] =>
  Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Nomad's `formatAllocMetrics(metric, false, "    ")` without the trailing newline. Go's
 * map order is random; we sort keys so the text is deterministic.
 */
export function formatAllocMetrics(metric: AllocationMetric, prefix = '    '): string {
  const lines: string[] = [];
  if (!metric.NodesEvaluated) lines.push('* No nodes were eligible for evaluation');
  for (const [dc, available] of sortedEntries(metric.NodesAvailable)) {
    if (available === 0) lines.push(`* No nodes are available in datacenter ${goQuote(dc)}`);
  }
  for (const [cls, n] of sortedEntries(metric.ClassFiltered)) {
    lines.push(`* Class ${goQuote(cls)}: ${n} nodes excluded by filter`);
  }
  for (const [constraint, n] of sortedEntries(metric.ConstraintFiltered)) {
    lines.push(`* Constraint ${goQuote(constraint)}: ${n} nodes excluded by filter`);
  }
  if ((metric.NodesExhausted ?? 0) > 0) lines.push(`* Resources exhausted on ${metric.NodesExhausted} nodes`);
  for (const [cls, n] of sortedEntries(metric.ClassExhausted)) {
    lines.push(`* Class ${goQuote(cls)} exhausted on ${n} nodes`);
  }
  for (const [dim, n] of sortedEntries(metric.DimensionExhausted)) {
    lines.push(`* Dimension ${goQuote(dim)} exhausted on ${n} nodes`);
  }
  for (const dim of metric.QuotaExhausted ?? []) lines.push(`* Quota limit hit ${goQuote(dim)}`);
  return lines.map((line) => `${prefix}${line}`).join('\n');
}

/**
 * A blocked evaluation created after the stop could not place the group: Nomad's
 * `command/job_restart.go` `monitorPlacementFailures`. Unrecoverable: the next batch would fail the
 * same way.
 */
export class PlacementFailureError extends RestartError {
  override readonly kind = 'placement-failure';
  readonly evalId: string;
  readonly group: string;
  readonly metric: AllocationMetric;

  constructor(props: { evalId: string; group: string; metric: AllocationMetric } & IdDisplay) {
    super(
      `Evaluation ${goQuote(displayId(props.evalId, props))} has placement failures for group ${goQuote(props.group)}:\n${formatAllocMetrics(props.metric)}`,
    );
    this.evalId = props.evalId;
    this.group = props.group;
    this.metric = props.metric;
  }
}

/** `Failed to restart task "<t>": <err>` (one per failed task in `-task` mode). */
export class TaskRestartError extends RestartError {
  override readonly kind = 'task-restart';
  readonly task: string;

  constructor(task: string, cause: unknown) {
    super(`Failed to restart task ${goQuote(task)}: ${errorText(cause)}`, { cause });
    this.task = task;
  }
}

/** The Nomad call of `command/job_restart.go` `handleAlloc` that failed while handling one allocation. */
export type AllocationStep = 'restart' | 'stop' | 'evaluate' | 'evaluations' | 'allocation';

/**
 * A Nomad call failed while handling one allocation, with the upstream wording:
 * `Failed to stop allocation: <err>`, `Failed evaluate job: <err>` (sic),
 * `Failed to retrieve evaluations for job "<job>": <err>`,
 * `Failed to retrieve allocation "<id>": <err>`; for `restart` the bare `<err>`.
 */
export class AllocationStepError extends RestartError {
  override readonly kind = 'allocation-step';
  readonly step: AllocationStep;

  constructor(
    props: { step: AllocationStep; cause: unknown; jobId?: string; allocationId?: string } & IdDisplay,
  ) {
    const err = errorText(props.cause);
    const text: Record<AllocationStep, () => string> = {
      restart: () => err,
      stop: () => `Failed to stop allocation: ${err}`,
      evaluate: () => `Failed evaluate job: ${err}`,
      evaluations: () => `Failed to retrieve evaluations for job ${goQuote(props.jobId ?? '')}: ${err}`,
      allocation: () =>
        `Failed to retrieve allocation ${goQuote(displayId(props.allocationId ?? '', props))}: ${err}`,
    };
    super(text[props.step](), { cause: props.cause });
    this.step = props.step;
  }
}

/**
 * Beyond Nomad: one allocation that was not replaced, or not healthy, in time. The message opens
 * with the allocation (`Allocation "1a2b3c4d" ...`); each subclass says what befell it.
 * Recoverable, like any single-allocation failure.
 */
export abstract class AllocationWaitError extends RestartError {
  readonly allocationId: string;

  constructor(props: { allocationId: string } & IdDisplay, what: string) {
    super(`Allocation ${goQuote(displayId(props.allocationId, props))} ${what}`);
    this.allocationId = props.allocationId;
  }
}

/** `-replacement-timeout`: the replacement of an allocation was not seen running in time. */
export class ReplacementTimeoutError extends AllocationWaitError {
  override readonly kind = 'replacement-timeout';
  readonly timeoutNs: number;

  constructor(props: { allocationId: string; timeoutNs: number; timeoutText: string } & IdDisplay) {
    super(props, `was not replaced within -replacement-timeout=${props.timeoutText}`);
    this.timeoutNs = props.timeoutNs;
  }
}

/**
 * `-wait-healthy`: the allocation was not healthy by `-healthy-deadline`, e.g. `Allocation
 * "1a2b3c4d" did not become healthy within 5m0s: check "http" is "failure": <output>`.
 */
export class HealthDeadlineError extends AllocationWaitError {
  override readonly kind = 'health-deadline';

  constructor(props: { allocationId: string; deadlineText: string; reason: string } & IdDisplay) {
    super(props, `did not become healthy within ${props.deadlineText}: ${props.reason}`);
  }
}

/**
 * `-wait-healthy`: the allocation failed (or was stopped) while the run waited for it to be
 * healthy; it is reported at once, not waited on.
 */
export class AllocationUnhealthyError extends AllocationWaitError {
  override readonly kind = 'allocation-unhealthy';

  constructor(props: { allocationId: string; reason: string } & IdDisplay) {
    super(props, `failed before it became healthy: ${props.reason}`);
  }
}

/**
 * `Error restarting allocation "<id>": <inner>`: the per-allocation wrapper of Nomad's
 * `command/job_restart.go` `handleAlloc`.
 */
export class AllocationRestartError extends RestartError {
  override readonly kind = 'allocation-restart';
  readonly allocationId: string;

  constructor(props: { allocationId: string; cause: unknown } & IdDisplay) {
    super(
      `Error restarting allocation ${goQuote(displayId(props.allocationId, props))}: ${errorText(props.cause)}`,
      { cause: props.cause },
    );
    this.allocationId = props.allocationId;
  }

  /** True when the wrapped error is a placement failure (an unrecoverable batch). */
  get unrecoverable(): boolean {
    return this.cause instanceof PlacementFailureError;
  }
}

/**
 * Wraps the errors of one allocation. Like upstream's `multierror.Prefix`, several task
 * errors give several wrapped errors, so the final list stays flat.
 */
export function wrapAllocationErrors(
  allocationId: string,
  errors: readonly unknown[],
  display: IdDisplay,
): AllocationRestartError[] {
  return errors.map((cause) => new AllocationRestartError({ allocationId, cause, ...display }));
}

/** One batch error in a form that fits in Step Functions state and events. */
export interface BatchError {
  /** The text as printed in error lists. */
  message: string;
  /** A placement failure: the same failure would stop the next batch. */
  unrecoverable: boolean;
  /** Full ID of the allocation it concerns, when it concerns one. */
  allocationId?: string;
}

/** The serialisable form of an error caught while running a batch. */
export function toBatchError(err: unknown): BatchError {
  const message = errorText(err);
  if (err instanceof AllocationRestartError) {
    return { message, unrecoverable: err.unrecoverable, allocationId: err.allocationId };
  }
  return { message, unrecoverable: err instanceof PlacementFailureError };
}

/**
 * Nomad's `command/job_restart.go` `isErrorRecoverable`: a batch is unrecoverable when any error is
 * a placement failure, or when the batch's error text contains `Permission denied` (kept as a
 * string rule on purpose: that is how upstream defines it, and a 403 reaches us only as text).
 */
export function isBatchUnrecoverable(errors: readonly BatchError[]): boolean {
  return (
    errors.some((e) => e.unrecoverable) ||
    errors
      .map((e) => e.message)
      .join('\n')
      .includes(PERMISSION_DENIED)
  );
}
