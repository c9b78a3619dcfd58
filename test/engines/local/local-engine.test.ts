// Scenario: the definition synthesized from the CDK stack, run by the local engine
// (aws-local-stepfunctions) with every Task bound to its real Lambda handler and the real
// engine behind it, against the simulator over HTTP. An in-place restart and a system-job
// reschedule complete; the per-job lock is released on success and on failure; a batch costs
// at most 10 state transitions whatever its size (none per allocation).

import { runRestartLocally } from '../../../lib/engines/local/engine';
import type { ProgressEvent } from '../../../lib/restart/events';
import type { RestartInput } from '../../../lib/restart/input';
import { type Harness, simpleJob, startHarness, waitAllRunning } from '../../steps/helpers/harness';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';
const { localStores } = await import('../../../lib/stores/from-env');

async function run(h: Harness, input: RestartInput, emit: (event: ProgressEvent) => void = () => undefined) {
  const entered: string[] = [];
  const local = await runRestartLocally({
    input,
    nomad: { address: h.sim.address },
    emit,
    prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
    onStateEntered: (name) => entered.push(name),
  });
  const result = await local.result;
  const batches = entered.filter((s) => s === 'Check deployments').length;
  const loop = entered.slice(entered.indexOf('Check deployments'), entered.indexOf('Finish restart'));
  return { result, entered, batches, perBatch: loop.length / Math.max(1, batches) };
}

describe('the synthesized workflow, run locally against the simulator', () => {
  let h: Harness;
  afterEach(() => h.close());

  it.each([
    { batchSize: '1', allocations: 4 },
    { batchSize: '4', allocations: 8 },
  ])(
    'restarts in place in batches of $batchSize and releases the lock',
    async ({ batchSize, allocations }) => {
      // Arrange
      h = await startHarness({ jobs: [simpleJob('web', 'service', allocations)] });
      await waitAllRunning(h, 'web', allocations);

      // Act
      const { result, batches, perBatch } = await run(h, { job: 'web', batchSize, yes: true });

      // Assert
      expect(result.status).toBe('SUCCEEDED');
      expect(result.output).toMatchObject({ outcome: 'succeeded', restarted: allocations });
      expect(batches).toBe(allocations / Number(batchSize));
      expect(perBatch).toBeLessThanOrEqual(10);
      expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(allocations);
      expect(localStores.lock.holder({ namespace: 'default', jobId: 'web' })).toBeUndefined();
    },
  );

  it('reschedules a system job through the eval-trigger step and releases the lock', async () => {
    // Arrange
    h = await startHarness({
      nodes: [{ name: 'n1' }, { name: 'n2' }],
      jobs: [simpleJob('monitor', 'system', 1, 'group')],
    });
    await waitAllRunning(h, 'monitor', 2);

    // Act
    const { result, entered, perBatch } = await run(h, { job: 'monitor', reschedule: true, yes: true });

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(entered.filter((s) => s === 'Trigger evaluations')).toHaveLength(2);
    expect(h.sim.control.counters()['PUT /v1/job/:id/evaluate']).toBe(2);
    expect(
      h.sim.control
        .state()
        .allocations({ jobId: 'monitor' })
        .filter((a) => a.PreviousAllocation),
    ).toHaveLength(2);
    expect(perBatch).toBeLessThanOrEqual(10);
    expect(localStores.lock.holder({ namespace: 'default', jobId: 'monitor' })).toBeUndefined();
  });

  it('releases the lock when the run fails (a 502 with -on-error fail)', async () => {
    // Arrange
    h = await startHarness({ jobs: [simpleJob('batchy', 'batch', 3)] });
    await waitAllRunning(h, 'batchy', 3);
    h.sim.control.injectFault({ pathSuffix: '/restart', nth: 1, status: 502, body: '' });

    // Act
    const { result } = await run(h, { job: 'batchy', onError: 'fail' });

    // Assert
    expect(result.status).toBe('FAILED');
    expect(result.error).toBe('RestartFailed');
    expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(1);
    expect(localStores.lock.holder({ namespace: 'default', jobId: 'batchy' })).toBeUndefined();
  });

  it('streams a step’s events as they happen, not when the step ends', async () => {
    // Arrange: the restart call takes 1 s, so "Restart batch" runs at least that long after
    // announcing the allocation.
    h = await startHarness({ jobs: [simpleJob('slow', 'service', 1)] });
    await waitAllRunning(h, 'slow', 1);
    h.sim.control.injectFault({ kind: 'latency', latencyMs: 1_000, pathSuffix: '/restart' });
    const seenAt = new Map<string, number>();

    // Act
    const { result } = await run(h, { job: 'slow', yes: true }, (event) => {
      seenAt.set(event.type, performance.now());
    });

    // Assert: "Restarting allocation" was printed before the slow call, a second ahead of the end.
    expect(result.status).toBe('SUCCEEDED');
    const announced = seenAt.get('allocation-restarting') ?? Number.NaN;
    const finished = seenAt.get('finished') ?? Number.NaN;
    expect(finished - announced).toBeGreaterThanOrEqual(900);
  });
});
