/**
 * How one job a fleet started ended, read from its item execution's result (`map-results.ts`):
 * the item's input names the job; a succeeded item's output carries the one-job execution's
 * `RunSummary` (or, for a job found locked, the lock's words); a failed item's cause is the failed
 * one-job execution as the `.sync` task describes it (`DescribeExecution`: its `Error`, its
 * `Cause`, its ARN).
 */
import { causeMessage } from '../errors/cause-message';
import { staleCount, staleFails } from '../restart/freshness/stale';
import { ERROR_LIST_HEADER, trimSpace } from '../restart/text';
import type { FleetEvent, FleetJobName, FleetJobOutcome, FleetJobProblem } from './events';
import { FleetResultDecodeError, type MapResultEntry, parseJson } from './map-results';
import { type ProblemContext, problemText } from './reasons';

/** A started job's end: its outcome, why it was not restarted (if not), its execution. */
export interface FleetJobEnd extends FleetJobName {
  readonly outcome: FleetJobOutcome;
  /** Absent when the job was restarted. */
  readonly problem?: FleetJobProblem;
  /** The one-job execution, when the result names it. */
  readonly executionArn?: string;
}

/** The one-job workflow's Fail state of a job held by another run (`lib/workflow/state-names.ts`). */
const JOB_LOCKED = 'JobLocked';
/** How the lock step ends its message, before the holder's words (lib/steps/lock/take-lock-step.ts). */
const HELD_BY = ' is already being restarted by ';
/** A reason's words in one summary line: the rest is in the job's own execution. */
const MAX_MESSAGE_LENGTH = 300;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);
const shorten = (text: string) =>
  text.length <= MAX_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_MESSAGE_LENGTH - 3)}...`;

/** The job an item execution restarted, from its input (`{options, item}`) or its output. */
function jobNameOf(entry: MapResultEntry): FleetJobName {
  const input = parseJson(entry.Input);
  const item = isObject(input) && isObject(input['item']) ? input['item']['input'] : undefined;
  const output = parseJson(entry.Output);
  for (const source of [item, output]) {
    if (!isObject(source)) continue;
    const job = stringOf(source['job']);
    const namespace = stringOf(source['namespace']);
    if (job !== undefined && namespace !== undefined) return { namespace, job };
  }
  throw new FleetResultDecodeError(`item execution "${entry.ExecutionArn}": its input names no job`);
}

/** Who holds the lock, from the lock step's message; the whole message when it is worded otherwise. */
function holderOf(cause: string): string {
  const message = trimSpace(causeMessage(cause));
  const at = message.indexOf(HELD_BY);
  return shorten(at < 0 ? message : message.slice(at + HELD_BY.length));
}

/**
 * A failed job's reason in one line: the first of Nomad's errors when the cause is a run summary
 * (its error list), else the cause's first line.
 */
export function failureMessage(cause: string): string {
  const lines = causeMessage(cause)
    .split('\n')
    .map(trimSpace)
    .filter((line) => line !== '');
  const header = lines.findIndex((line) => ERROR_LIST_HEADER.test(line));
  const first = header < 0 ? undefined : lines[header + 1];
  if (header < 0 || first === undefined) return shorten(lines[0] ?? 'no cause given');
  const count = Number.parseInt(lines[header] ?? '', 10);
  const more = count > 1 ? ` (and ${count - 1} more)` : '';
  return shorten(`${first.replace(/^\* /, '')}${more}`);
}

/** A succeeded item: the one-job summary's outcome, or a lock's words. */
function succeededEnd(name: FleetJobName, output: unknown): FleetJobEnd {
  const result = isObject(output) ? output : {};
  const arn = stringOf(result['executionArn']);
  const at = arn === undefined ? {} : { executionArn: arn };
  const summary = result['output'];
  if (typeof summary === 'string')
    return { ...name, ...at, outcome: 'locked', problem: lockedProblem(summary) };
  if (!isObject(summary) || typeof summary['outcome'] !== 'string')
    return failed(name, at, 'UnreadableResult', 'the job ended without a run summary');
  const allocations = isObject(summary['allocations']) ? summary['allocations'] : {};
  switch (summary['outcome']) {
    case 'succeeded': {
      // Nomad took every restart, yet a task may not have started again (a crash on start): the
      // job's freshness report (with `startedBefore`) says so, and the fleet counts it as failed,
      // as the job's own run at a terminal exits 1.
      const stale = staleOf(summary['freshness']);
      if (stale === undefined) return { ...name, ...at, outcome: 'restarted' };
      return failed(name, at, 'AllocationsStillStale', stale);
    }
    case 'skipped-job-locked':
      return {
        ...name,
        ...at,
        outcome: 'locked',
        problem: { kind: 'locked', holder: `execution "${stringOf(summary['lockedBy']) ?? 'unknown'}"` },
      };
    case 'stopped-at-window-end': {
      const done =
        numberOf(allocations['restarted']) +
        numberOf(allocations['rescheduled']) +
        numberOf(allocations['failed']);
      const problem: FleetJobProblem =
        done === 0
          ? { kind: 'not-reached', why: 'window-ended' }
          : { kind: 'window-ended-midway', done, of: numberOf(allocations['planned']) };
      return { ...name, ...at, outcome: 'stopped-at-window-end', problem };
    }
    case 'canceled':
      return {
        ...name,
        ...at,
        outcome: 'canceled',
        problem: { kind: 'canceled', message: 'its question was answered "no"' },
      };
    default:
      return failed(
        name,
        at,
        'RestartFailed',
        failureMessage(stringOf(summary['text']) ?? String(summary['outcome'])),
      );
  }
}

/** How many allocations a job's freshness report left stale, in words, when that fails the job. */
function staleOf(freshness: unknown): string | undefined {
  if (!isObject(freshness) || !Array.isArray(freshness['stale'])) return undefined;
  const report = {
    stale: freshness['stale'] as { allocationId: string; why: 'failed' | 'not-reached' | 'locked' }[],
    staleOmitted: numberOf(freshness['staleOmitted']),
  };
  if (!staleFails(report)) return undefined;
  return `${staleCount(report)} allocations still started before ${stringOf(freshness['startedBefore']) ?? 'the time given'}`;
}

const lockedProblem = (cause: string): FleetJobProblem => ({ kind: 'locked', holder: holderOf(cause) });

function failed(
  name: FleetJobName,
  at: { executionArn?: string },
  error: string,
  message: string,
): FleetJobEnd {
  return { ...name, ...at, outcome: 'failed', problem: { kind: 'failed', error, message } };
}

/** A failed, aborted or timed-out item: the one-job execution's error, read from the `.sync` cause. */
function unsucceededEnd(name: FleetJobName, entry: MapResultEntry): FleetJobEnd {
  const child = parseJson(entry.Cause);
  const described = isObject(child) && typeof child['Error'] === 'string';
  const error = described ? String(child['Error']) : (entry.Error ?? entry.Status);
  const cause = (described ? stringOf(child['Cause']) : entry.Cause) ?? '';
  const arn = described ? stringOf(child['ExecutionArn']) : undefined;
  const at = arn === undefined ? {} : { executionArn: arn };
  if (error === JOB_LOCKED) return { ...name, ...at, outcome: 'locked', problem: lockedProblem(cause) };
  if (entry.Status === 'ABORTED')
    return {
      ...name,
      ...at,
      outcome: 'canceled',
      problem: { kind: 'canceled', message: 'stopped before it finished' },
    };
  if (entry.Status === 'TIMED_OUT') return failed(name, at, 'States.Timeout', 'ran past its time limit');
  return failed(name, at, error, cause === '' ? error : `${error}: ${failureMessage(cause)}`);
}

/** How the job of one item execution ended. */
export function jobEndOf(entry: MapResultEntry): FleetJobEnd {
  const name = jobNameOf(entry);
  return entry.Status === 'SUCCEEDED'
    ? succeededEnd(name, parseJson(entry.Output))
    : unsucceededEnd(name, entry);
}

/**
 * The `job-finished` event of a job's end, for an engine or a follower that sees each job end:
 * a locked job's `reason` is the holder (the formatter words it), any other the reason's words.
 */
export function jobFinishedEvent(end: FleetJobEnd, time: number, ctx: ProblemContext): FleetEvent {
  const { problem } = end;
  const reason =
    problem === undefined
      ? undefined
      : problem.kind === 'locked'
        ? problem.holder
        : problemText(problem, ctx);
  return {
    type: 'job-finished',
    time,
    namespace: end.namespace,
    job: end.job,
    outcome: end.outcome,
    ...(reason === undefined ? {} : { reason }),
    ...(end.executionArn === undefined ? {} : { executionArn: end.executionArn }),
  };
}
