// Scenario: the control API starts a pending allocation at once. With a long `allocStartMs` a
// newly placed allocation (a replacement, say) stays `pending`, as one whose client is slow to
// start it; `startPendingAllocation` (`PUT /_sim/allocation/:id/start`) lets it run when the
// test says so (a replacement pending for over 60 s, as in test/e2e/cli-scenarios.test.ts).
import type { Allocation } from '../../lib/nomad/types';
import { group, job, nodes } from './helpers/fixtures';
import { call } from './helpers/http';
import { itSim, openTarget, simControl, type Target } from './helpers/target';

/** Simulated ms a placed allocation stays pending: a day. */
const ALLOC_START_MS = 86_400_000;

describe('simulator', () => {
  let target: Target;

  beforeAll(async () => {
    target = await openTarget({ allocStartMs: ALLOC_START_MS });
  });
  afterAll(() => target.close());
  beforeEach(() => target.control?.reset());

  /** Registers a one-allocation job and resolves with its allocation once placed (pending). */
  const placePending = async (): Promise<Allocation> => {
    const control = simControl(target);
    control.seed({ nodes: nodes(1), jobs: [] });
    control.registerJob(job('web', 'service', [group('g', 1, {}, '1h')]));
    await control.waitFor((s) => s.allocations({ jobId: 'web' }).length === 1);
    return control.state().allocations({ jobId: 'web' })[0] as Allocation;
  };

  describe('startPendingAllocation', () => {
    itSim('runs a pending allocation and its tasks at once', async () => {
      // Arrange
      const control = simControl(target);
      const placed = await placePending();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = control.state().allocation(placed.ID);

      // Act
      control.startPendingAllocation(placed.ID);

      // Assert
      expect(before?.ClientStatus).toBe('pending');
      const after = control.state().allocation(placed.ID);
      expect(after?.ClientStatus).toBe('running');
      expect(after?.TaskStates?.['main']?.State).toBe('running');
    });

    itSim('is served under /_sim and refuses an allocation that is not pending', async () => {
      // Arrange
      const placed = await placePending();
      const start = (id: string) => call(target.address, `/_sim/allocation/${id}/start`, { method: 'PUT' });

      // Act
      const first = await start(placed.ID);
      const again = await start(placed.ID);
      const unknown = await start('00000000-0000-0000-0000-000000000000');

      // Assert
      expect(first.status).toBe(200);
      expect(simControl(target).state().allocation(placed.ID)?.ClientStatus).toBe('running');
      expect([again.status, again.text]).toEqual([
        404,
        `Allocation "${placed.ID}" is not pending on a ready node (client status "running")`,
      ]);
      expect([unknown.status, unknown.text]).toEqual([
        404,
        'Unknown allocation "00000000-0000-0000-0000-000000000000"',
      ]);
    });
  });
});
