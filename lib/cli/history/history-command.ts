/**
 * `nomad-restart history [options] [<job> [<run ID prefix>]]`: the runs recorded in Nomad
 * (docs/history.md), read with a Nomad token alone. The command line is checked before anything is
 * read; a refusal is one line on stderr and exit 1.
 */
import { NamedError } from '../../errors/named-error';
import { goQuote } from '../../go/quote';
import type { RunRecord } from '../../history/record';
import type { RunHistory } from '../../history/run-history';
import type { NomadClient } from '../../nomad/client';
import { UnexpectedResponseError } from '../../nomad/errors';
import { reportCommandUsage } from '../commands/command-flags';
import { CliUsageError, CommandArgumentError } from '../commands/errors';
import type { RunContext } from '../commands/run-job-restart';
import { createTerminal, type Terminal } from '../terminal/terminal';
import { type HistoryLine, parseHistoryArgs } from './history-args';
import { formatRunDetail } from './history-detail';
import { HISTORY_USAGE } from './history-help';
import { runStates } from './history-liveness';
import { matchesPrefix, readHistory, readJobRuns } from './history-reader';
import { formatHistoryTable, type ShownRun } from './history-view';

/** A run ID prefix that matches no run, or several: the message, exit 1 (as Nomad's prefix errors). */
export class HistoryRunPrefixError extends NamedError {}

/** What the command prints when the histories it read hold no run. */
function noRecordText(line: HistoryLine): string {
  const where = line.namespace === '*' ? 'in any namespace' : `in namespace ${goQuote(line.namespace)}`;
  if (line.target.kind === 'job') return `No restart recorded for job ${goQuote(line.target.jobId)}`;
  if (line.target.kind === 'fleets') return `No fleet restart recorded ${where}`;
  return `No restart recorded ${where}`;
}

/** A Job column unless one job's runs are listed, a Namespace column for every namespace. */
const tableLayout = (line: HistoryLine) => ({
  withJob: line.target.kind !== 'job',
  withNamespace: line.namespace === '*',
});

/** The record as `-output json` prints it: as stored, plus how its run stands. */
const jsonOf = (run: ShownRun) => ({ ...run.record, state: run.state });

/** The one run `prefix` names among `records`, in full, with a fleet run's linked job runs. */
async function showRun(
  line: HistoryLine & { prefix: string },
  records: readonly RunRecord[],
  history: RunHistory,
  nomad: NomadClient,
  terminal: Terminal,
): Promise<void> {
  const matched = records.filter((r) => matchesPrefix(r, line.prefix));
  const [record, second] = matched;
  if (record === undefined)
    throw new HistoryRunPrefixError(`No run with prefix or ID ${goQuote(line.prefix)} found`);
  if (second !== undefined) {
    const shown = await runStates(nomad, matched);
    const table = formatHistoryTable(shown, tableLayout(line));
    throw new HistoryRunPrefixError(`Prefix matched multiple runs\n\n${table}`);
  }
  const jobRuns = record.kind === 'fleet' ? await readJobRuns(history, line.namespace) : [];
  const linked = jobRuns.filter((r) => r.fleetRunId === record.runId);
  const [run] = await runStates(nomad, [record], jobRuns);
  const linkedRuns = await runStates(nomad, linked);
  if (run === undefined) return;
  const text =
    line.output === 'json'
      ? JSON.stringify(
          { ...jsonOf(run), ...(record.kind === 'fleet' ? { jobRuns: linkedRuns.map(jsonOf) } : {}) },
          null,
          2,
        )
      : formatRunDetail(run, linkedRuns);
  terminal.write({ stream: 'stdout', text });
}

/** Lists the newest `-n` runs. */
async function listRuns(
  line: HistoryLine,
  records: readonly RunRecord[],
  history: RunHistory,
  nomad: NomadClient,
  terminal: Terminal,
): Promise<void> {
  const newest = records.slice(0, line.count);
  if (newest.length === 0 && line.output === 'text') {
    terminal.write({ stream: 'stdout', text: noRecordText(line) });
    return;
  }
  // A fleet's own record is told running by its jobs' runs: read them when one is provisional.
  const provisionalFleet = newest.some((r) => r.kind === 'fleet' && r.outcome === 'running');
  const jobRuns = provisionalFleet ? await readJobRuns(history, line.namespace) : [];
  const shown = await runStates(nomad, newest, jobRuns);
  const text =
    line.output === 'json'
      ? JSON.stringify(shown.map(jsonOf), null, 2)
      : formatHistoryTable(shown, tableLayout(line));
  terminal.write({ stream: 'stdout', text });
}

/** Nomad's 403 on a history or lock read, in policy words. */
function deniedText(error: UnexpectedResponseError, line: HistoryLine): string {
  return (
    `Nomad denied reading the restart history (${error.message}): the token needs the variables capabilities ` +
    `"read" and "list" on path "nomad-restart/history/*" and "read" on path "nomad-restart/locks/*" ` +
    `in namespace ${goQuote(line.namespace)} (docs/history.md)`
  );
}

/** Runs `history` and returns the exit code. */
export async function runHistoryCommand(args: readonly string[], ctx: RunContext): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: HistoryLine;
    try {
      line = parseHistoryArgs(args, ctx.env);
    } catch (error) {
      if (!(error instanceof CliUsageError)) throw error;
      return reportCommandUsage(error, terminal, { help: HISTORY_USAGE, command: 'history' });
    }
    const [{ NomadClient }, { NomadRunHistory }] = await Promise.all([
      import('../../nomad/client'),
      import('../../stores/nomad-run-history'),
    ]);
    const nomad = NomadClient.create(line.nomad);
    try {
      const history = new NomadRunHistory(nomad);
      const { records, unreadable } = await readHistory(history, line);
      // Left alone, not hidden: a newer nomad-restart may have written them.
      if (unreadable > 0)
        terminal.write({
          stream: 'stderr',
          text: `${unreadable} item${unreadable === 1 ? '' : 's'} of the history ${unreadable === 1 ? 'is' : 'are'} no record this version reads (written by a newer nomad-restart, or by hand): left out`,
        });
      if (line.prefix === undefined) await listRuns(line, records, history, nomad, terminal);
      else await showRun({ ...line, prefix: line.prefix }, records, history, nomad, terminal);
      return 0;
    } catch (error) {
      if (error instanceof HistoryRunPrefixError || error instanceof CommandArgumentError) {
        terminal.write({ stream: 'stderr', text: error.message });
        return 1;
      }
      if (error instanceof UnexpectedResponseError && error.statusCode === 403) {
        terminal.write({ stream: 'stderr', text: deniedText(error, line) });
        return 1;
      }
      throw error;
    } finally {
      await nomad.close();
    }
  } finally {
    terminal.close();
  }
}
