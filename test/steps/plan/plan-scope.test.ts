/**
 * Scenarios: a one-job run started by a fleet with a node scope plans only the job's allocations on
 * the nodes in scope, against the simulator over HTTP: by node ID (no node read), by node pool and
 * by datacenter (one read of the node list for the run, never one per allocation); without a
 * scope, every allocation, as the one-job command.
 */
import type { Job } from '../../../lib/nomad/types';
import type { JobScope } from '../../../lib/restart/job-scope';
import { planRestart } from '../../../lib/steps/index';
import type { NodeSpec } from '../../../sim/index';
import { restartOptions } from '../../fixtures/restart-options';
import { group, job } from '../../sim/helpers/fixtures';
import { type Harness, harnessPerTest, waitAllRunning } from '../helpers/harness';

const NODES: NodeSpec[] = [
  { id: 'aa110000-0000-4000-8000-000000000001', name: 'client-1', datacenter: 'dc1' },
  { id: 'aa220000-0000-4000-8000-000000000002', name: 'client-2', datacenter: 'dc2', pool: 'gpu' },
  { id: 'bb330000-0000-4000-8000-000000000003', name: 'client-3', datacenter: 'dc2', pool: 'gpu' },
];

const WEB: Job = job('web', 'service', [group('web', 9, {}, '1h')], {
  Datacenters: ['dc1', 'dc2'],
  NodePool: 'all',
});

describe('planRestart with a scope', () => {
  const harness = harnessPerTest();

  async function start(): Promise<Harness> {
    const h = await harness.start({ nodes: NODES, jobs: [WEB] });
    await waitAllRunning(h, 'web', 9);
    h.sim.control.resetCounters();
    return h;
  }

  /** The job's running allocations on `nodes`, as the simulator holds them. */
  const placedOn = (h: Harness, nodes: readonly (string | undefined)[]) =>
    h.sim.control
      .state()
      .allocations({ jobId: 'web' })
      .filter((a) => a.DesiredStatus === 'run' && nodes.includes(a.NodeID))
      .map((a) => a.ID)
      .sort();

  const plannedIds = async (h: Harness, scope?: JobScope) => {
    const planned = await planRestart(h.client, restartOptions('web', scope === undefined ? {} : { scope }), {
      emit: () => {},
      now: h.now,
    });
    if (planned.kind === 'nothing-to-restart') return [];
    if (planned.kind !== 'plan') throw new Error(`expected a plan, got ${planned.kind}`);
    return planned.batches
      .flat()
      .map((a) => a.id)
      .sort();
  };
  const nodeReads = (h: Harness) =>
    h.sim.control.requestLog().filter((r) => r.path.startsWith('/v1/nodes')).length;

  it.each([
    { name: 'a node ID', scope: { nodes: [NODES[2]?.id ?? ''] }, nodes: [NODES[2]?.id], reads: 0 },
    { name: 'a node pool', scope: { nodePool: 'gpu' }, nodes: [NODES[1]?.id, NODES[2]?.id], reads: 1 },
    { name: 'a datacenter', scope: { datacenters: ['dc1'] }, nodes: [NODES[0]?.id], reads: 1 },
    {
      name: 'a pool and a datacenter together',
      scope: { nodePool: 'gpu', datacenters: ['dc1'] },
      nodes: [],
      reads: 1,
    },
  ])('plans only the allocations on the nodes of $name', async ({ scope, nodes, reads }) => {
    // Arrange
    const h = await start();
    const expected = placedOn(h, nodes);

    // Act
    const planned = await plannedIds(h, scope);

    // Assert: a real subset (the scheduler spreads the job over every node).
    expect(planned).toEqual(expected);
    expect(expected.length > 0).toBe(nodes.length > 0);
    expect(expected.length).toBeLessThan(9);
    expect(nodeReads(h)).toBe(reads);
  });

  it('plans every allocation without a scope, reading no node', async () => {
    // Arrange
    const h = await start();

    // Act
    const planned = await plannedIds(h);

    // Assert
    expect(planned).toHaveLength(9);
    expect(nodeReads(h)).toBe(0);
  });
});
