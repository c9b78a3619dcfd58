/**
 * Fault case 4: a node disconnects in the middle of batch 2 (its allocations go `unknown`) and
 * reconnects later, for a group with `disconnect { lost_after = "1h" }`, `replace` true and
 * false, and each `reconcile` value. Three allocations run on the node that disconnects (n2),
 * three on n1; replacements can only go to n3.
 *
 * In place, restarting an allocation on the disconnected node is Nomad's recoverable
 * `404 (No path to node)`; with `replace = true` Nomad places a **replacement** of its own, and
 * on reconnect `reconcile` decides which of the two stays. With `-reschedule`, the run reports
 * how each allocation's replacement came about in Nomad's vocabulary (the JSON output's `cause`):
 * a **migration** for the stops it made on ready nodes (and, with `replace = false`, for the
 * stop Nomad could only act on once the node was back), a **replacement** for an allocation the
 * disconnect had already replaced. Every case ends with the accounting check.
 */
import type { Allocation, DisconnectStrategy } from '../../lib/nomad/types';
import type { RestartOptions } from '../../lib/restart/options';
import { runWorkflow } from '../engines/local/helpers/workflow-harness';
import { restartOptions } from '../fixtures/restart-options';
import {
  allocationsOf,
  eventsOf,
  type Harness,
  simpleJob,
  TIME_SCALE,
  waitAllRunning,
} from '../steps/helpers/harness';
import { accountFor, CLEAN, faultSuite, invariantsOf } from './helpers/accounting';

const JOB = 'web';
const COUNT = 6;
const N2 = 'node-2';
/** Simulated time the node stays disconnected. */
const OUTAGE_MS = 60_000;

const { harness } = faultSuite();

async function cluster(disconnect: DisconnectStrategy): Promise<Harness> {
  const job = simpleJob(JOB, 'service', COUNT);
  const group = job.TaskGroups?.[0];
  if (group) group.Disconnect = { LostAfter: 3_600_000_000_000, ...disconnect };
  const h = await harness.start({
    nodes: [
      { name: 'n1', id: 'node-1', capacity: 3 },
      { name: 'n2', id: N2, capacity: 3 },
      { name: 'n3', id: 'node-3', capacity: 12, eligible: false },
    ],
    jobs: [job],
  });
  await waitAllRunning(h, JOB, COUNT);
  // New placements (replacements) go to n3 only, so what lands where is known.
  h.sim.control.setNodeEligibility('node-3', true);
  h.sim.control.setNodeEligibility('node-1', false);
  h.sim.control.setNodeEligibility(N2, false);
  return h;
}

/**
 * The allocations in the order the run handles them (newest first, ties by ID: Nomad's
 * `command/job_restart.go` `Run`).
 */
function processingOrder(target: Harness): Allocation[] {
  return allocationsOf(target, JOB).sort((a, b) => b.CreateIndex - a.CreateIndex || (a.ID < b.ID ? -1 : 1));
}

/**
 * Disconnects n2 when the 3rd write (batch 2's first) arrives, and brings it back either once the
 * run has ended (`after-run`: the outage covers every later batch and the run's last look at its
 * replacements, however slowly the run goes), or after {@link OUTAGE_MS} (`after-outage`: for a
 * run that cannot finish until the node is back).
 */
async function restartThroughOutage(
  target: Harness,
  over: Partial<RestartOptions>,
  write: string,
  back: 'after-run' | 'after-outage',
) {
  const order = processingOrder(target);
  const startedAt = target.now();
  const reconnect = () => target.sim.control.setNodeStatus(N2, 'ready');
  let disconnected = false;
  let outageOver: Promise<void> = Promise.resolve();
  target.sim.control.onRequest({ pathSuffix: write, method: 'PUT', nth: 3 }, () => {
    target.sim.control.setNodeStatus(N2, 'disconnected');
    disconnected = true;
    if (back === 'after-outage')
      outageOver = new Promise((resolve) => setTimeout(() => resolve(reconnect()), OUTAGE_MS * TIME_SCALE));
  });
  const options = restartOptions(JOB, { batchSize: { value: 2, percent: false }, ...over });
  const run = await runWorkflow(target, options);
  if (back === 'after-run' && disconnected) reconnect();
  await outageOver;
  // The reconnect's evaluation and the kills it orders settle.
  await target.sim.control.waitFor(
    (s) => s.allocations({ jobId: JOB }).filter((a) => a.DesiredStatus === 'run').length === COUNT,
    5_000,
  );
  return { order, run, accounting: accountFor(target, order, run, startedAt) };
}

const onN2 = (a: Allocation) => a.NodeID === N2;
const short = (a: Allocation) => a.ID.slice(0, 8);

describe('a node that disconnects mid-batch, in place', () => {
  it.each([
    { replace: false, reconcile: 'best_score', kept: 'original' },
    { replace: true, reconcile: 'keep_original', kept: 'original' },
    { replace: true, reconcile: 'keep_replacement', kept: 'replacement' },
    // The simulator scores both the same; the original, already placed, wins the tie.
    { replace: true, reconcile: 'best_score', kept: 'original' },
    // The original has run since before the outage; the replacement only since during it.
    { replace: true, reconcile: 'longest_running', kept: 'original' },
  ] as const)(
    'replace = $replace, reconcile = $reconcile: the $kept stays, nothing of Nomad’s is touched',
    async ({ replace, reconcile, kept }) => {
      // Arrange
      const target = await cluster({ Replace: replace, Reconcile: reconcile });

      // Act
      const { order, run, accounting } = await restartThroughOutage(target, {}, '/restart', 'after-run');

      // Assert: batch 1 ran before the outage; afterwards each allocation on n2 is Nomad's 404.
      const unreachable = order.slice(2).filter(onN2);
      expect(unreachable.length).toBeGreaterThan(0);
      expect(run.exitCode).toBe(1);
      expect(run.errors).toEqual(
        unreachable.map(
          (a) => `Error restarting allocation "${short(a)}": Unexpected response code: 404 (No path to node)`,
        ),
      );
      expect(invariantsOf(accounting)).toEqual(CLEAN);
      expect(accounting.count('restarted')).toBe(COUNT - unreachable.length);
      expect(accounting.count('failed')).toBe(unreachable.length);
      const state = target.sim.control.state();
      for (const original of unreachable) {
        const now = state.allocation(original.ID);
        const replacement = state.allocation(now?.NextAllocation ?? '');
        expect(now?.NextAllocation !== undefined && now.NextAllocation !== '').toBe(replace);
        const running = kept === 'original' ? now : replacement;
        expect(running).toMatchObject({ DesiredStatus: 'run', ClientStatus: 'running' });
        if (replace) {
          const other = kept === 'original' ? replacement : now;
          expect(other?.DesiredStatus).toBe('stop');
        }
      }
    },
  );
});

describe('a node that disconnects mid-batch, with -reschedule', () => {
  // With replace = true Nomad replaces n2's allocations itself and the run ends without the node
  // (its last look at a replacement must still see the node out); with replace = false the stops
  // on n2 wait for the node to come back.
  it.each([
    { replace: true, late: 'replacement', back: 'after-run' },
    { replace: false, late: 'migration', back: 'after-outage' },
  ] as const)(
    'replace = $replace: every allocation replaced once, the late ones by a $late',
    async ({ replace, late, back }) => {
      // Arrange
      const target = await cluster({ Replace: replace, Reconcile: 'best_score' });

      // Act
      const { order, run, accounting } = await restartThroughOutage(
        target,
        { reschedule: true, replacementTimeoutNs: 10 * 60 * 1e9 },
        '/stop',
        back,
      );

      // Assert: stops on a ready node are migrations; those of the disconnected node after the
      // outage began are replaced by Nomad for the disconnect, or migrated once it is back.
      expect(run.exitCode).toBe(0);
      expect(invariantsOf(accounting)).toEqual(CLEAN);
      expect(accounting.count('rescheduled')).toBe(COUNT);
      const causes = new Map(
        eventsOf(run.events, 'allocation-replaced').map((e) => [e.allocationId, e.cause] as const),
      );
      const expected = order.map((a, i) => [short(a), i >= 2 && onN2(a) ? late : 'migration']);
      expect(order.map((a) => [short(a), causes.get(a.ID)])).toEqual(expected);
      expect(expected.some(([, cause]) => cause === late)).toBe(true);
    },
  );
});
