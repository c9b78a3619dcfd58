/**
 * The end of a fleet run, as data and as text: from the item list, the plan's skipped list and how
 * each started job ended (`job-end.ts`), the counts, the jobs not restarted with why, whether the
 * run ends "with errors" (exit 1), the lines a person reads (terminal, console, chat), and the
 * whole per-job report. The execution output lists at most {@link MAX_LISTED_PROBLEMS} jobs, so it
 * stays far under Step Functions' 256 KiB for 5,000 jobs; the report, in the plan store, has all.
 */
import { formatGoDuration } from '../go/duration';
import { runTimeLine } from '../restart/run-summary';
import type { FleetJobName, FleetJobProblem, FleetSkipReason } from './events';
import type { FleetJobItem } from './items';
import type { FleetJobEnd } from './job-end';
import { isFleetError, problemText } from './reasons';

/** Jobs listed with their reason in the execution output (the report lists every one). */
export const MAX_LISTED_PROBLEMS = 40;

/** How a fleet run ended; the fleet state machine's last Choice routes on it. */
export type FleetOutcome = 'finished' | 'finished-with-errors';

/** Everything {@link summarizeFleet} needs. Times are Unix ms. */
export interface FleetFacts {
  readonly runId: string;
  /** The item list: the jobs to restart, in the fleet's order. */
  readonly items: readonly FleetJobItem[];
  /** The jobs the plan selected but skipped, in its order. */
  readonly skipped: readonly (FleetJobName & { readonly reason: FleetSkipReason })[];
  /** How each started job ended (the Distributed Map's results). */
  readonly ends: readonly FleetJobEnd[];
  /** The Distributed Map's error, when it failed (the failure budget ran out, the run was stopped). */
  readonly mapError?: { readonly Error: string; readonly Cause: string };
  /** The maintenance window's end had come when the run ended. */
  readonly windowEnded: boolean;
  /** `dryRun`: nothing was started; the jobs to restart are reported as planned. */
  readonly dryRun: boolean;
  /** A schedule started the run: a locked job is skipped there, not an error. */
  readonly scheduled: boolean;
  readonly maxFailedJobs: number;
  readonly startedAt: number | null;
  readonly finishedAt: number;
  /** Where the whole report is written (`fleetKeys(runId).report`). */
  readonly reportKey: string;
}

/** One selected job in the report. */
export interface FleetJobReport extends FleetJobName {
  /** `planned`: a dry run's job to restart. */
  readonly status: 'restarted' | 'failed' | 'skipped' | 'planned';
  /** Why it was not restarted, as data and in words. */
  readonly problem?: FleetJobProblem;
  readonly reason?: string;
  readonly executionArn?: string;
  /** Allocations in scope when the fleet planned (jobs to restart only). */
  readonly allocations?: number;
}

/** A job not restarted, as the summary lists it. */
export type FleetProblemLine = FleetJobName & { readonly problem: FleetJobProblem; readonly reason: string };

/** The fleet's summary: the execution output. Plain JSON; times are RFC 3339 (UTC). */
export interface FleetSummary {
  readonly outcome: FleetOutcome;
  readonly runId: string;
  /** Jobs selected: restarted + failed + skipped. */
  readonly jobs: number;
  readonly restarted: number;
  readonly failed: number;
  /** Every selected job not restarted: skipped kinds, locked, not reached. */
  readonly skipped: number;
  /** Allocations in scope of the jobs to restart, when the fleet planned. */
  readonly allocations: number;
  /** The first {@link MAX_LISTED_PROBLEMS} jobs not restarted, with why. */
  readonly problems: readonly FleetProblemLine[];
  readonly omittedProblems: number;
  readonly startedAt: string | null;
  readonly finishedAt: string;
  readonly duration: string | null;
  /** The plan-store key of the whole report ({@link FleetReport}). */
  readonly report: string;
  readonly lines: readonly string[];
  /** The lines joined: the `Cause` of a fleet run that ends with errors. */
  readonly text: string;
}

/** The whole per-job report, written to the plan store. */
export interface FleetReport {
  readonly runId: string;
  readonly outcome: FleetOutcome;
  readonly jobs: readonly FleetJobReport[];
}

const key = (name: FleetJobName) => `${name.namespace}\u0000${name.job}`;
const iso = (ms: number) => new Date(ms).toISOString();

/** Why the jobs never started were not reached. */
function notReachedWhy(facts: FleetFacts): Extract<FleetJobProblem, { kind: 'not-reached' }>['why'] {
  // A Map Run failing on its failure budget (Step Functions' error name for it).
  if (facts.mapError?.Error === 'States.ExceedToleratedFailureThreshold') return 'max-failed-jobs';
  return facts.windowEnded ? 'window-ended' : 'stopped';
}

/** Every selected job's report line: the jobs to restart in order, then the plan's skipped ones. */
function reportJobs(facts: FleetFacts): FleetJobReport[] {
  const ends = new Map(facts.ends.map((end) => [key(end), end]));
  const ctx = { maxFailedJobs: facts.maxFailedJobs };
  const line = (name: FleetJobName, problem: FleetJobProblem | undefined, rest: object): FleetJobReport => {
    if (problem === undefined) return { ...name, status: 'restarted', ...rest };
    const status = problem.kind === 'failed' ? 'failed' : 'skipped';
    return { ...name, status, problem, reason: problemText(problem, ctx), ...rest };
  };
  const why = notReachedWhy(facts);
  const started = facts.items.map(({ input: { namespace, job }, allocations }): FleetJobReport => {
    if (facts.dryRun) return { namespace, job, status: 'planned', allocations };
    const end = ends.get(key({ namespace, job }));
    if (end === undefined) return line({ namespace, job }, { kind: 'not-reached', why }, { allocations });
    const arn = end.executionArn === undefined ? {} : { executionArn: end.executionArn };
    return line({ namespace, job }, end.problem, { allocations, ...arn });
  });
  const skipped = facts.skipped.map(({ namespace, job, reason }) => line({ namespace, job }, reason, {}));
  return [...started, ...skipped];
}

/** The summary block's first line, exactly as the issue words it (`jobs` whatever the count, as Nomad writes its counts). */
export function fleetHeadline(counts: {
  readonly restarted: number;
  readonly failed: number;
  readonly skipped: number;
  readonly withErrors: boolean;
}): string {
  const finished = counts.withErrors ? 'Fleet restart finished with errors' : 'Fleet restart finished';
  return `${finished}: ${counts.restarted} jobs restarted, ${counts.failed} failed, ${counts.skipped} skipped`;
}

/** A dry run's first line: what it would have done. */
const dryRunHeadline = (allocations: number, jobs: number, skipped: number) =>
  `Fleet dry run: would restart ${allocations} allocations of ${jobs} jobs, ${skipped} skipped; nothing was changed`;

/** One job's line under the headline. */
export const problemLine = (p: FleetProblemLine) => `  ${p.namespace}/${p.job}: ${p.reason}`;

/** The line that says how many jobs the list left out, and where they are. */
export const omittedLine = (omitted: number, report: string | undefined) =>
  `  ... and ${omitted} more jobs in ${report === undefined ? "the run's report" : `the report "${report}"`}`;

/** The fleet's summary and its whole report. */
export function summarizeFleet(facts: FleetFacts): { summary: FleetSummary; report: FleetReport } {
  const jobs = reportJobs(facts);
  const count = (status: FleetJobReport['status']) => jobs.filter((j) => j.status === status).length;
  const problems: FleetProblemLine[] = jobs.flatMap((j) =>
    j.problem === undefined || j.reason === undefined
      ? []
      : [{ namespace: j.namespace, job: j.job, problem: j.problem, reason: j.reason }],
  );
  const withErrors = problems.some((p) => isFleetError(p.problem, { scheduled: facts.scheduled }));
  const outcome: FleetOutcome = withErrors ? 'finished-with-errors' : 'finished';
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const omittedProblems = problems.length - listed.length;
  const counts = { restarted: count('restarted'), failed: count('failed'), skipped: count('skipped') };
  const allocations = facts.items.reduce((sum, item) => sum + item.allocations, 0);
  const headline = facts.dryRun
    ? dryRunHeadline(allocations, facts.items.length, counts.skipped)
    : fleetHeadline({ ...counts, withErrors });
  const lines = [headline, ...listed.map(problemLine)];
  if (omittedProblems > 0) lines.push(omittedLine(omittedProblems, facts.reportKey));
  const startedAt = facts.startedAt === null ? null : iso(facts.startedAt);
  const duration =
    facts.startedAt === null
      ? null
      : formatGoDuration(Math.max(0, Math.round((facts.finishedAt - facts.startedAt) / 1000)) * 1e9);
  // The console's and a notifier's reader also wants when (the terminal prints the block alone).
  lines.push(runTimeLine({ startedAt, finishedAt: iso(facts.finishedAt), duration }));
  const summary: FleetSummary = {
    outcome,
    runId: facts.runId,
    jobs: jobs.length,
    ...counts,
    allocations,
    problems: listed,
    omittedProblems,
    startedAt,
    finishedAt: iso(facts.finishedAt),
    duration,
    report: facts.reportKey,
    lines,
    text: lines.join('\n'),
  };
  return { summary, report: { runId: facts.runId, outcome, jobs } };
}
