/**
 * A fleet's `-dry-run` (beyond Nomad): the jobs in the order the run would take them, each with
 * its allocations and batches as the one-job dry run prints them (`lib/restart/format-plan.ts`,
 * reused whole), the jobs the run would skip with their reasons, the namespaces the token could
 * list (`-namespace '*'`), the totals, and the Nomad requests: the fleet's own reads, then each
 * job's. Nothing is touched to print it.
 */
import type { OutputLine } from '../restart/format';
import { REQUEST_INDENT, renderPlan } from '../restart/format-plan';
import type { RestartOptions } from '../restart/options';
import type { RestartPlan } from '../restart/plan';
import type { FleetJobName, FleetSkipReason } from './events';
import type { FleetFormatter } from './format';
import { type ConsumerFindings, consumerLines } from './format-consumers';
import { problemText } from './reasons';

/** A fleet's plan, as a dry run prints it. */
export interface FleetPlanPreview {
  /** Unix ms: the time on the plan's lines. */
  readonly createdAt: number;
  /** The jobs to restart, in order: their allocations in scope and, when planned, their one-job plan. */
  readonly jobs: readonly (FleetJobName & { readonly allocations: number; readonly plan?: RestartPlan })[];
  readonly skipped: readonly (FleetJobName & { readonly reason: FleetSkipReason })[];
  /** With `-namespace '*'`: the namespaces the token could list (a missing one is visible here). */
  readonly namespaces?: readonly string[];
  readonly maxJobs: number;
  readonly maxFailedJobs: number;
  /** `-order`: `id` (namespace, then job ID) or `priority` (highest Nomad priority last). */
  readonly order: 'id' | 'priority';
  /** The read requests the fleet's own plan made (job lists, namespaces, nodes). */
  readonly requests: readonly string[];
  /** With `-uses-variable`/`-uses-secret`: jobs whose specification was read, and the consumers. */
  readonly consumers?: NonNullable<ConsumerFindings['consumers']>;
  /** With `-stale`: how many variables each path's listing found, per namespace. */
  readonly variables?: NonNullable<ConsumerFindings['variables']>;
}

const ORDER_WORDS: Readonly<Record<FleetPlanPreview['order'], string>> = {
  id: 'namespace, then job ID',
  priority: 'by priority, highest last',
};

/** A request line: what the one-job dry run indents by {@link REQUEST_INDENT}. */
const isRequest = (line: OutputLine) => line.text.startsWith(REQUEST_INDENT);

/**
 * Renders a fleet's dry run. `checkPollMs` is how often the health gate may read one
 * allocation's checks (as the one-job dry run takes it).
 */
export function renderFleetPlan(
  preview: FleetPlanPreview,
  options: RestartOptions,
  formatter: FleetFormatter,
  checkPollMs = 0,
): OutputLine[] {
  const time = preview.createdAt;
  const lines: OutputLine[] = [];
  const header = (text: string) => lines.push(formatter.job.renderHeader(text, time));
  const out = (text: string) => lines.push({ stream: 'stdout', text });
  const total = preview.jobs.reduce((sum, job) => sum + job.allocations, 0);
  const of = preview.jobs.length;
  header(
    `Dry run: would restart ${total} allocations of ${of} jobs, at most ${preview.maxJobs} at a time ` +
      `(-max-failed-jobs ${preview.maxFailedJobs}), in order ${ORDER_WORDS[preview.order]}; nothing was changed`,
  );
  if (preview.namespaces !== undefined)
    header(`Namespaces the token can list: ${preview.namespaces.join(', ') || '(none)'}`);
  lines.push(...consumerLines(preview, formatter.job, time, formatter.timeZone));
  header(`Jobs selected with ${preview.requests.length} requests`);
  for (const request of preview.requests) out(`${REQUEST_INDENT}${request}`);
  let jobRequests = 0;
  preview.jobs.forEach((job, i) => {
    header(
      `Job "${job.job}" in namespace "${job.namespace}" (${i + 1} of ${of}): ${job.allocations} allocations`,
    );
    if (job.plan === undefined) return;
    const planLines = renderPlan(job.plan, options, formatter.job, checkPollMs);
    jobRequests += planLines.filter(isRequest).length;
    lines.push(...planLines);
  });
  if (preview.skipped.length > 0) {
    header(`Skipping ${preview.skipped.length} jobs`);
    for (const { namespace, job, reason } of preview.skipped)
      out(`    ${namespace}/${job}: ${problemText(reason, preview)}`);
  }
  header(
    `Totals: ${of} jobs to restart (${total} allocations), ${preview.skipped.length} skipped; ` +
      `${preview.requests.length + jobRequests} Nomad requests listed above`,
  );
  return lines;
}
