/**
 * A Nomad simulator of its own for each test of a store file: started before each test with the
 * file's scenario (ACLs and the tokens it tests with), closed after it with every Nomad client the
 * test opened; and what the store under test warned, emptied between tests.
 */
import { NomadClient } from '../../../lib/nomad';
import { type RunningSimulator, type Scenario, startSimulator } from '../../../sim/index';

/** What a store test reaches its simulator through. */
export interface SimulatorPerTest {
  /** The running test's simulator (throws outside a test). */
  readonly running: () => RunningSimulator;
  /** A client of the simulator with `token`, closed after the test. */
  readonly clientAs: (token: string) => NomadClient;
  /** A store's log: `debug` dropped, `warn` kept in {@link warned}. */
  readonly log: { readonly debug: (message: string) => void; readonly warn: (message: string) => void };
  /** The running test's warnings, in order. */
  readonly warned: string[];
}

/** Registers the file's `beforeEach` and `afterEach` over `scenario()` (called once a test). */
export function simulatorPerTest(scenario: () => Scenario): SimulatorPerTest {
  let sim: RunningSimulator | undefined;
  const clients: NomadClient[] = [];
  const warned: string[] = [];
  beforeEach(async () => {
    sim = await startSimulator({ scenario: scenario() });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await sim?.close();
    sim = undefined;
    warned.length = 0;
  });
  const running = (): RunningSimulator => {
    if (sim === undefined) throw new Error('no simulator');
    return sim;
  };
  return {
    running,
    clientAs: (token) => {
      const client = NomadClient.create({ address: running().address, token });
      clients.push(client);
      return client;
    },
    log: { debug: () => {}, warn: (message) => warned.push(message) },
    warned,
  };
}
