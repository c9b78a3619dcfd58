/**
 * The simulator of the fleet-plan bench, in a process of its own so the planner's memory is
 * measured alone: `argv[2]` service jobs of `argv[3]` allocations each, spread over four
 * namespaces and 100 nodes, each job with a `team` meta. Prints its address; ends with its parent.
 */
import { startSimulator } from '../sim/index';

const jobs = Number(process.argv[2]);
const perJob = Number(process.argv[3]);
const namespaces = ['prod', 'staging', 'batch'];
const sim = await startSimulator({
  timeScale: 0.01,
  scenario: {
    namespaces,
    nodes: Array.from({ length: 100 }, (_, i) => ({ name: `node-${i}` })),
    jobs: Array.from({ length: jobs }, (_, i) => ({
      ID: `svc-${String(i).padStart(5, '0')}`,
      Namespace: ['default', ...namespaces][i % 4] ?? 'default',
      Type: 'service',
      Datacenters: ['dc1'],
      Meta: { team: i % 2 === 0 ? 'payments' : 'search' },
      TaskGroups: [{ Name: 'web', Count: perJob, Tasks: [{ Name: 'main', Driver: 'mock_driver' }] }],
    })),
  },
});
process.stdout.write(`${sim.address}\n`);
process.on('disconnect', () => void sim.close().then(() => process.exit(0)));
