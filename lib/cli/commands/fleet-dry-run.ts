/**
 * `fleet -dry-run`: the fleet's plan made in-process with read-only calls ("Plan fleet"'s own
 * selection, then each job's one-job plan as `-dry-run` makes it for one job), printed with the
 * fleet formatter: the jobs in order with their allocations and batches, the skipped jobs with
 * their reasons, the totals and the requests. Never a write request, no lock, no plan store.
 */
import type { FleetFormatter } from '../../fleet/format';
import type { FleetPlanPreview } from '../../fleet/format-plan';
import { ALL_NAMESPACES } from '../../fleet/options';
import type { RestartOptions } from '../../restart/options';
import type { Terminal } from '../terminal/terminal';
import { awsDryRunNomadLine } from './aws-engine-flags';
import type { FleetCommandLine } from './fleet-command';

/** The run ID a dry run plans under: no execution is ever named after it. */
const DRY_RUN_ID = 'dry-run';

/** Prints the fleet's plan and returns the exit code (0; Nomad's errors are thrown with its words). */
export async function fleetDryRun(
  line: FleetCommandLine,
  formatter: FleetFormatter,
  terminal: Terminal,
): Promise<number> {
  const [{ NomadClient }, { planRestart, checkPollMs }, { planFleet }, { renderFleetPlan }] =
    await Promise.all([
      import('../../nomad/index'),
      import('../../steps/index'),
      import('../../steps/fleet/plan-fleet'),
      import('../../fleet/format-plan'),
    ]);
  const requests: string[] = [];
  let recording = true;
  const client = NomadClient.create({
    ...line.general.nomad,
    onRequest: (request) => {
      if (recording) requests.push(request);
    },
  });
  try {
    if (line.engine.kind === 'aws')
      terminal.write(awsDryRunNomadLine(line.general.nomad, formatter.job, Date.now()));
    const { fleet } = line;
    const plan = await planFleet(client, fleet, DRY_RUN_ID);
    // The fleet's own reads end here; each job's plan lists its own requests.
    recording = false;
    const jobs: FleetPlanPreview['jobs'][number][] = [];
    for (const item of plan.items) {
      const { job, namespace } = item.input;
      const options: RestartOptions = {
        ...fleet.jobOptions,
        job,
        namespace,
        groups: [],
        tasks: [],
        ...(plan.scope === undefined ? {} : { scope: plan.scope }),
        // -stale: the job's own time, which the item lays over the shared options.
        ...(item.input.startedBefore === undefined
          ? {}
          : { startedBefore: Date.parse(item.input.startedBefore) }),
      };
      const planned = await planRestart(client, options, {
        emit: () => undefined,
        now: Date.now,
        // A preview touches nothing, so there is nothing to confirm for a multi-region job.
        confirmMultiregion: async () => true,
      });
      jobs.push({
        job,
        namespace,
        allocations: item.allocations,
        ...(planned.kind === 'plan' ? { plan: planned } : {}),
      });
    }
    const gate = fleet.jobOptions.waitHealthy;
    const preview: FleetPlanPreview = {
      createdAt: Date.now(),
      jobs,
      skipped: plan.skipped,
      ...(fleet.selection.namespace === ALL_NAMESPACES ? { namespaces: plan.namespaces } : {}),
      maxJobs: fleet.maxJobs,
      maxFailedJobs: fleet.maxFailedJobs,
      order: fleet.order,
      requests,
      ...(plan.consumers === undefined ? {} : { consumers: plan.consumers }),
      ...(plan.variables === undefined ? {} : { variables: plan.variables }),
    };
    const shared: RestartOptions = { ...fleet.jobOptions, job: '', groups: [], tasks: [] };
    for (const out of renderFleetPlan(
      preview,
      shared,
      formatter,
      gate === undefined ? 0 : checkPollMs(gate.minHealthyTimeNs),
    ))
      terminal.write(out);
    return 0;
  } finally {
    await client.close();
  }
}
