/**
 * The simulator of the scale rows, in a process of its own so the engine's memory is measured
 * alone: one service job of `argv[2]` allocations on 100 nodes, simulated time 100 times faster
 * than the clock (a scenario's allocations run from the start). Prints its address; ends with its
 * parent.
 */
import { startSimulator } from '../sim/index';

const allocations = Number(process.argv[2]);
const sim = await startSimulator({
  timeScale: 0.01,
  scenario: {
    nodes: Array.from({ length: 100 }, (_, i) => ({ name: `node-${i}` })),
    jobs: [
      {
        ID: 'scale',
        Type: 'service',
        Datacenters: ['dc1'],
        TaskGroups: [{ Name: 'web', Count: allocations, Tasks: [{ Name: 'main', Driver: 'mock_driver' }] }],
      },
    ],
  },
});
process.stdout.write(`${sim.address}\n`);
process.on('disconnect', () => void sim.close().then(() => process.exit(0)));
