/** `startSimulator`: a Nomad API simulator on 127.0.0.1 with its control API. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Acl } from './acl';
import { createScaledClock } from './clock';
import { ConsulAcl } from './consul/acl';
import { createConsulControl, createConsulControlHandler } from './consul/control';
import { consulApi } from './consul/endpoints';
import { createControl, createControlHandler } from './control';
import { SimListenError } from './errors';
import { bundledFleetScenario } from './fleet-scenario';
import { Faults } from './http/faults';
import { createSimServer } from './http/server';
import { RequestStats } from './http/stats';
import { Cluster } from './model/cluster';
import type { SimTiming } from './model/context';
import { bundledRotationScenario } from './rotation-scenario';
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
  const stats = new RequestStats(Date.now, options.requestLogLimit);
  const control = createControl(cluster, acl, faults, stats);
  const scenario = options.scenario ?? 'empty';
  if (scenario === 'demo') control.seed(demoScenario());
  else if (scenario === 'fleet') control.seed(bundledFleetScenario());
  else if (scenario === 'rotation') control.seed(bundledRotationScenario());
  else if (scenario !== 'empty') control.seed(scenario);

  const env = { cluster, acl, random, region: options.region ?? 'global' };
  const now = () => clock.now();
  const server = createSimServer({ env, faults, stats, now, control: createControlHandler(control) });
  const consulAcl = new ConsulAcl();
  const consulFaults = new Faults();
  const consulStats = new RequestStats(Date.now, options.requestLogLimit);
  const consulControl = createConsulControl(cluster, consulAcl, consulFaults, consulStats);
  const consulServer = createSimServer({
    env,
    faults: consulFaults,
    stats: consulStats,
    now,
    control: createConsulControlHandler(consulControl),
    api: consulApi(consulAcl),
  });
  const port = await listen(server, options.port ?? 0, 'nomad');
  // The Nomad server is already listening: a Consul port that fails must not leave it open, or
  // the process that asked would never exit.
  const consulPort = await listen(consulServer, options.consulPort ?? 0, 'consul').catch(
    async (error: unknown) => {
      cluster.reset();
      await stop(server);
      throw error;
    },
  );
  return {
    address: `http://${SIM_HOST}:${port}`,
    control,
    consul: { address: `http://${SIM_HOST}:${consulPort}`, control: consulControl },
    close: async () => {
      cluster.reset();
      cluster.ctx.store.dropWaiters();
      await Promise.all([stop(server), stop(consulServer)]);
    },
  };
}

/**
 * Listens on 127.0.0.1 and resolves to the port (a free one for 0); a failure is a
 * {@link SimListenError} naming `which` server.
 */
async function listen(server: Server, port: number, which: 'nomad' | 'consul'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error): void => reject(new SimListenError(which, port, error));
    server.once('error', fail);
    server.listen(port, SIM_HOST, () => {
      server.off('error', fail);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stops a server at once: held blocking queries and idle keep-alive sockets are closed. */
function stop(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
