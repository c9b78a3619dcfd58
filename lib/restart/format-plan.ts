/**
 * `-dry-run` output (beyond Nomad): the plan as the run would carry it out, with the Nomad
 * requests each step would make. Lines reuse the formatter's own texts through events, so a
 * dry run reads like the real run it previews.
 */

import { formatGoDuration } from '../go/duration';
import type { RestartMode } from './events';
import type { PlannedAllocation } from './filter';
import type { Formatter, OutputLine } from './format';
import type { RestartOptions } from './options';
import type { RestartPlan } from './plan';
import { ordinal, plural } from './text';

/** Indentation of a request line: every line so indented is one request the run would send. */
export const REQUEST_INDENT = '        ';

function modesOf(alloc: PlannedAllocation, options: RestartOptions): RestartMode[] {
  if (options.reschedule) return [{ kind: 'reschedule' }];
  if (options.allTasks) return [{ kind: 'all-tasks' }];
  if (options.tasks.length > 0) return alloc.tasks.map((task) => ({ kind: 'task', task }));
  return [{ kind: 'running-tasks' }];
}

/** The write requests one allocation would cost, in the order they would be sent. */
function requestsOf(alloc: PlannedAllocation, mode: RestartMode, plan: RestartPlan, options: RestartOptions) {
  if (mode.kind === 'reschedule') {
    const stop = `PUT /v1/allocation/${alloc.id}/stop${options.noShutdownDelay ? '?no_shutdown_delay=true' : ''}`;
    const system = (alloc.jobType ?? plan.job.type) === 'system';
    return system
      ? [stop, `PUT /v1/job/${encodeURIComponent(plan.job.id)}/evaluate {"ForceReschedule":true}`]
      : [stop];
  }
  const body = JSON.stringify({
    TaskName: mode.kind === 'task' ? mode.task : '',
    AllTasks: mode.kind === 'all-tasks',
  });
  return [`PUT /v1/client/allocation/${alloc.id}/restart ${body}`];
}

/** The reads a batch's health wait makes (`-wait-healthy`), after its restarts. */
function healthRequestsOf(
  batch: readonly PlannedAllocation[],
  plan: RestartPlan,
  options: RestartOptions,
  pollMs: number,
) {
  const watched = (alloc: PlannedAllocation) => (options.reschedule ? '<replacement>' : alloc.id);
  return [
    `GET /v1/job/${encodeURIComponent(plan.job.id)}/allocations?index=<n> (blocking: task states)`,
    ...batch.map(
      (alloc) =>
        `GET /v1/client/allocation/${watched(alloc)}/checks (at most every ${formatGoDuration(pollMs * 1e6)})`,
    ),
    ...consulReadsOf(plan, 'blocking: the checks of every allocation of the batch', '?index=<n>'),
  ];
}

/** The Consul reads of the gate (`plan.consulServices`), one per service whatever the batch size. */
function consulReadsOf(plan: RestartPlan, why: string, query = '') {
  return (plan.consulServices ?? []).map(
    (service) => `Consul: GET /v1/health/checks/${encodeURIComponent(service)}${query} (${why})`,
  );
}

/**
 * Renders a dry run's plan: batches, allocations, skipped allocations, and the requests.
 * `checkPollMs` is how often the health gate may read one allocation's checks.
 */
export function renderPlan(
  plan: RestartPlan,
  options: RestartOptions,
  formatter: Formatter,
  checkPollMs = 0,
): OutputLine[] {
  const time = plan.createdAt;
  const lines: OutputLine[] = [];
  const out = (text: string) => lines.push({ stream: 'stdout', text });
  const eligible = plan.batches.reduce((sum, batch) => sum + batch.length, 0);
  out(
    `==> ${formatter.timestamp(time)}: Dry run: would restart ${plural(eligible, 'allocation', 'allocations')} ` +
      `of job "${plan.job.id}" in ${plural(plan.batches.length, 'batch', 'batches')} of up to ${plan.batchSize}; nothing was changed`,
  );
  const gate = options.waitHealthy;
  if (gate !== undefined)
    out(
      `==> ${formatter.timestamp(time)}: Each batch then waits until its allocations are healthy: ` +
        `-min-healthy-time ${formatGoDuration(gate.minHealthyTimeNs)}, -healthy-deadline ${formatGoDuration(gate.healthyDeadlineNs)}`,
    );
  if (gate !== undefined)
    for (const request of consulReadsOf(
      plan,
      'once before the first batch: Consul answers, the token reads it',
    ))
      out(`${REQUEST_INDENT}${request}`);
  plan.batches.forEach((batch, index) => {
    out(`==> ${formatter.timestamp(time)}: ${ordinal(index + 1)} batch of ${batch.length} allocations`);
    out(`${REQUEST_INDENT}GET /v1/job/${encodeURIComponent(plan.job.id)}/deployments?all=true`);
    for (const alloc of batch) {
      for (const mode of modesOf(alloc, options)) {
        lines.push(
          ...formatter.render({
            type: 'allocation-restarting',
            time,
            allocationId: alloc.id,
            group: alloc.group,
            mode,
          }),
        );
        for (const request of requestsOf(alloc, mode, plan, options)) out(`${REQUEST_INDENT}${request}`);
      }
    }
    if (gate === undefined) return;
    lines.push(
      ...formatter.render({
        type: 'health-waiting',
        time,
        count: batch.length,
        minHealthyTimeNs: gate.minHealthyTimeNs,
        healthyDeadlineNs: gate.healthyDeadlineNs,
        ...(plan.consulServices === undefined ? {} : { consulServices: plan.consulServices }),
      }),
    );
    for (const request of healthRequestsOf(batch, plan, options, checkPollMs))
      out(`${REQUEST_INDENT}${request}`);
  });
  if (plan.skipped.length > 0) {
    out(
      `==> ${formatter.timestamp(time)}: Skipping ${plural(plan.skipped.length, 'allocation', 'allocations')}`,
    );
    // Skip reasons are verbose-only in a real run; a dry run always shows them.
    for (const skipped of plan.skipped) {
      const event = {
        type: 'allocation-skipped',
        time,
        allocationId: skipped.id,
        reason: skipped.reason,
      } as const;
      lines.push(formatter.renderSkipped(event));
    }
  }
  return lines;
}
