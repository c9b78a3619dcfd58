/** `startSimulator`: a Nomad API simulator on 127.0.0.1 with its control API. */
import type { AddressInfo } from 'node:net';
import { Acl } from './acl';
import { createScaledClock } from './clock';
import { createControl, createControlHandler } from './control';
import { Faults } from './http/faults';
import { createSimServer } from './http/server';
import { RequestStats } from './http/stats';
import { Cluster } from './model/cluster';
import type { SimTiming } from './model/context';
import { demoScenario } from './scenario';
import type { RunningSimulator, SimulatorOptions } from './types';

/** The only address the simulator ever binds. */
export const SIM_HOST = '127.0.0.1';

function timingOf(options: SimulatorOptions): Partial<SimTiming> {
  const timing: Partial<SimTiming> = {};
  if (options.schedulerDelayMs !== undefined) timing.schedulerDelayMs = options.schedulerDelayMs;
  if (options.allocStartMs !== undefined) timing.allocStartMs = options.allocStartMs;
  if (options.taskKillMs !== undefined) timing.taskKillMs = options.taskKillMs;
  if (options.deploymentHealthyMs !== undefined) timing.deploymentHealthyMs = options.deploymentHealthyMs;
  if (options.taskRestartMs !== undefined) timing.taskRestartMs = options.taskRestartMs;
  return timing;
}

/**
 * Starts a simulator. Resolves once it is listening.
 * @example
 * const sim = await startSimulator({ scenario: 'demo', timeScale: 0.01 });
 * await fetch(`${sim.address}/v1/jobs`);
 * await sim.close();
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const random = options.random ?? Math.random;
  const clock = options.clock ?? createScaledClock(options.timeScale ?? 1);
  const cluster = new Cluster(clock, random, timingOf(options), options.leaseClock ?? createScaledClock(1));
  const acl = new Acl();
  const faults = new Faults();
  const stats = new RequestStats();
  const control = createControl(cluster, acl, faults, stats);
  const scenario = options.scenario ?? 'empty';
  if (scenario === 'demo') control.seed(demoScenario());
  else if (scenario !== 'empty') control.seed(scenario);

  const server = createSimServer({
    env: { cluster, acl, random, region: options.region ?? 'global' },
    faults,
    stats,
    now: () => clock.now(),
    control: createControlHandler(control),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, SIM_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: `http://${SIM_HOST}:${port}`,
    control,
    close: () =>
      new Promise<void>((resolve) => {
        cluster.reset();
        cluster.ctx.store.dropWaiters();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
