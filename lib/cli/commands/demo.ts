/**
 * `nomad-restart demo`: the docs example, for real, against a throwaway simulator. Three runs
 * through the same local engine a user gets (the synthesized state machine and the Lambda
 * handlers): an in-place restart in batches, a `-reschedule` of one group, and a system-job
 * reschedule (stop, then the evaluation that places the replacement). Then what Nomad saw.
 */
import type { RunContext } from './run-job-restart';
import { runJobRestart } from './run-job-restart';

/** The runs, as an operator would type them (job names from `sim/scenarios/demo.json`). */
export const DEMO_RUNS: readonly (readonly string[])[] = [
  ['-batch-size', '2', '-yes', 'example'],
  ['-reschedule', '-group', 'proxy', '-batch-size', '2', '-yes', 'example'],
  ['-reschedule', '-yes', 'node-monitor'],
];

/** Simulated time runs 20× faster, so replacements start in tens of milliseconds. */
const DEMO_TIME_SCALE = 0.05;

const COUNTED: readonly [string, string][] = [
  ['in-place restarts', 'PUT /v1/client/allocation/:id/restart'],
  ['allocation stops', 'PUT /v1/allocation/:id/stop'],
  ['job evaluations', 'PUT /v1/job/:id/evaluate'],
];

export async function runDemo(ctx: RunContext): Promise<number> {
  const { startSimulator } = await import('../../../sim/index');
  const sim = await startSimulator({ scenario: 'demo', timeScale: DEMO_TIME_SCALE });
  const out = (text: string) => ctx.stdout.write(`${text}\n`);
  try {
    const env: NodeJS.ProcessEnv = {
      ...ctx.env,
      NOMAD_ADDR: sim.address,
      CONSUL_HTTP_ADDR: sim.consul.address,
    };
    delete env['NOMAD_TOKEN'];
    delete env['CONSUL_HTTP_TOKEN'];
    delete env['CONSUL_HTTP_TOKEN_FILE'];
    out(`Nomad simulator listening on ${sim.address} (demo scenario)`);
    out(`Consul simulator listening on ${sim.consul.address}\n`);
    for (const args of DEMO_RUNS) {
      out(`$ nomad-restart ${args.join(' ')}`);
      const code = await runJobRestart(args, { ...ctx, env });
      out('');
      if (code !== 0) return code;
    }
    const counters = sim.control.counters();
    const replacements = sim.control
      .state()
      .allocations()
      .filter((alloc) => alloc.PreviousAllocation).length;
    out('What the simulator saw:');
    for (const [label, route] of COUNTED) out(`  ${label.padEnd(20)} ${counters[route] ?? 0}`);
    out(`  ${'replacements'.padEnd(20)} ${replacements}`);
    out(`  ${'Nomad requests'.padEnd(20)} ${counters['total'] ?? 0}`);
    return 0;
  } finally {
    await sim.close();
  }
}
