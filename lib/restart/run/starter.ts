/**
 * Who or what started a run, in words: the one rule behind a run's live chat thread
 * (lib/approvals/run-progress.ts) and its record in the job's restart history (lib/history).
 */
import { goQuote } from '../../go/quote';
import type { RestartOptions } from '../options';

/**
 * Who or what started the run: the fleet run it is a job of, else the input's `startedBy` (a
 * terminal's `user@host`), else the schedule that fired it, else an input without `startedBy`
 * (the Step Functions console or an SDK call).
 * @param startedBy the execution input's `startedBy`, when it had one
 */
export function runStarter(
  options: Pick<RestartOptions, 'fleet' | 'scheduleName'>,
  startedBy: string | undefined,
): string {
  if (options.fleet !== undefined)
    return `fleet run ${goQuote(options.fleet.runId)} (job ${options.fleet.index} of ${options.fleet.of})`;
  if (startedBy !== undefined) return startedBy;
  if (options.scheduleName !== undefined) return `schedule ${goQuote(options.scheduleName)}`;
  return 'an unnamed caller (the console or an SDK call: the input had no "startedBy")';
}
