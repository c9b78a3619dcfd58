/**
 * The simulator of the fleet scale row, in a process of its own so the engine's memory is measured
 * alone: a generated fleet (`sim/fleet-scenario.ts`) of `argv[2]` service jobs of `argv[3]`
 * allocations each across `argv[4]` namespaces, plus a few jobs of each kind a fleet skips;
 * simulated time 100 times faster than the clock. Prints its address; ends with its parent.
 */
import { fleetScenario } from '../sim/fleet-scenario';
import { startSimulator } from '../sim/index';

const [jobs, allocationsPerJob, namespaces] = process.argv.slice(2).map(Number);
const sim = await startSimulator({
  timeScale: 0.01,
  scenario: fleetScenario({
    ...(jobs === undefined ? {} : { jobs }),
    ...(allocationsPerJob === undefined ? {} : { allocationsPerJob }),
    ...(namespaces === undefined ? {} : { namespaces }),
    otherKinds: 2,
  }),
});
process.stdout.write(`${sim.address}\n`);
process.on('disconnect', () => void sim.close().then(() => process.exit(0)));
