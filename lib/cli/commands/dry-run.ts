/**
 * `-dry-run` (beyond Nomad): the plan, made with read-only calls (job list, job, allocations,
 * versions when needed) and printed with the requests a real run would send; never a write request.
 */

import type { Formatter } from '../../restart/format';
import { eventWriter } from '../terminal/run-local';
import type { Terminal } from '../terminal/terminal';
import { awsDryRunNomadLine } from './aws-engine-flags';
import type { JobRestartCommandLine } from './job-restart-command';

/** Prints the plan and returns the exit code (0; errors are thrown with Nomad's message). */
export async function dryRun(
  line: JobRestartCommandLine,
  formatter: Formatter,
  terminal: Terminal,
): Promise<number> {
  const [{ NomadClient }, { planRestart, checkPollMs }, { renderPlan }] = await Promise.all([
    import('../../nomad/index'),
    import('../../steps/index'),
    import('../../restart/format-plan'),
  ]);
  const client = NomadClient.create(line.general.nomad);
  try {
    const write = eventWriter(line, formatter, terminal);
    if (line.engine.kind === 'aws')
      terminal.write(awsDryRunNomadLine(line.general.nomad, formatter, Date.now()));
    const planned = await planRestart(client, line.options, {
      // The plan printout explains every allocation itself; only "nothing to do" is said as is.
      emit: (event) =>
        event.type === 'nothing-to-restart' || event.type === 'all-started-after' ? write(event) : undefined,
      now: Date.now,
      // A preview touches nothing, so there is nothing to confirm for a multi-region job.
      confirmMultiregion: async () => true,
    });
    const gate = line.options.waitHealthy;
    const pollMs = gate === undefined ? 0 : checkPollMs(gate.minHealthyTimeNs);
    if (planned.kind === 'plan')
      for (const out of renderPlan(planned, line.options, formatter, pollMs)) terminal.write(out);
    return 0;
  } finally {
    await client.close();
  }
}
