/**
 * The plan's lines for `-uses-variable`/`-uses-secret`/`-stale` and a shared `-started-before`,
 * printed before the fleet starts (and in its dry run): how many variables each path's listing
 * found (a policy without `list` hides variables without an error, so a count shows it), how many
 * jobs read the paths, each job not inspectable with its templates, and each job already fresh.
 */
import { goQuote } from '../go/quote';
import type { Formatter, OutputLine } from '../restart/format';
import { formatTimestamp } from '../restart/text';
import type { FleetJobName, FleetSkipReason } from './events';

/** What the lines are made of: the plan's findings. */
export interface ConsumerFindings {
  readonly consumers?: { readonly inspected: number; readonly consumers: number };
  readonly variables?: readonly {
    readonly namespace: string;
    readonly path: string;
    readonly found: number;
  }[];
  readonly skipped: readonly (FleetJobName & { readonly reason: FleetSkipReason })[];
}

const jobWords = (name: FleetJobName) => `job ${goQuote(name.job)} in namespace ${goQuote(name.namespace)}`;

/**
 * The plan's consumer and freshness lines, with `formatter`'s header; times in `timeZone` as the
 * one-job `All <n> allocations started after <T>` prints them.
 */
export function consumerLines(
  findings: ConsumerFindings,
  formatter: Formatter,
  time: number,
  timeZone: string | undefined,
): OutputLine[] {
  const lines: OutputLine[] = [];
  const header = (text: string) => lines.push(formatter.renderHeader(text, time));
  for (const { namespace, path, found } of findings.variables ?? [])
    header(`Found ${found} variables under ${goQuote(path)} in namespace ${goQuote(namespace)}`);
  if (findings.consumers !== undefined) {
    const { inspected, consumers } = findings.consumers;
    header(`${consumers} of ${inspected} jobs read the paths given (from their specifications)`);
  }
  for (const skip of findings.skipped) {
    const { reason } = skip;
    if (reason.kind === 'not-inspectable') {
      const what = jobWords(skip);
      header(
        `${what[0]?.toUpperCase()}${what.slice(1)} is not inspectable: ${reason.templates.join('; ')}; skipped (-filter selects it)`,
      );
    } else if (reason.kind === 'fresh') {
      lines.push({
        stream: 'stdout',
        text: `All ${reason.allocations} allocations of ${jobWords(skip)} started after ${formatTimestamp(reason.startedBefore, timeZone)}`,
      });
    }
  }
  return lines;
}
