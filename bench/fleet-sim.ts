/**
 * The simulator of the fleet scale row, in a process of its own so the engine's memory is
 * measured alone: `fleetScenario` with `argv[2]` jobs of `argv[3]` allocations (defaults 5,000
 * and 40) across `argv[4]` namespaces and `argv[5]` nodes (5 and 500), simulated time 100 times
 * faster than the clock. Prints its address (first line of stdout; requests per family and per
 * second from `GET <address>/_sim/rates`), its load time and memory on stderr; ends with its parent.
 */
import { fleetScenario, startSimulator } from '../sim/index';

const [jobs = 5000, allocationsPerJob = 40, namespaces = 5, nodes = 500] = process.argv
  .slice(2)
  .map((arg) => Number(arg));
const started = performance.now();
const scenario = fleetScenario({ jobs, allocationsPerJob, namespaces, nodes });
const sim = await startSimulator({ timeScale: 0.01, scenario });
const loadMs = Math.round(performance.now() - started);
process.stdout.write(`${sim.address}\n`);
const rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
process.stderr.write(
  `fleet-sim: ${jobs} jobs / ${jobs * allocationsPerJob} allocations loaded in ${loadMs} ms, RSS ${rssMiB} MiB\n`,
);
process.on('disconnect', () => void sim.close().then(() => process.exit(0)));
