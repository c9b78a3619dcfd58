import {
  type ItemExecutionSummary,
  runLocalExecution,
  TaskBindingError,
  type TaskHandler,
  type TaskStateInfo,
} from '../../../lib/engines/local';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import {
  distributedMapDefinition,
  FIXTURE_BUCKET,
  lambdaProcessor,
  sleepUnlessAborted,
} from './helpers/distributed-map';

type Item = { options: { delayMs: number }; item: { id: number; fail?: boolean }; index: number };

/** Runs every `WorkFn` Task with `work`, counting how many run at once. */
function concurrencyProbe(work: (item: Item, signal: AbortSignal) => Promise<unknown> = async () => ({})) {
  const probe = { inFlight: 0, maxInFlight: 0, started: [] as number[], aborted: [] as number[] };
  const handler: TaskHandler = async (payload, { signal }) => {
    const item = payload as Item;
    probe.started.push(item.item.id);
    probe.inFlight += 1;
    probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
    try {
      await sleepUnlessAborted(item.options.delayMs, signal);
      if (item.item.fail) throw Object.assign(new Error(`item ${item.item.id} broke`), { name: 'JobFailed' });
      return await work(item, signal);
    } catch (error) {
      if (signal.aborted) probe.aborted.push(item.item.id);
      throw error;
    } finally {
      probe.inFlight -= 1;
    }
  };
  return {
    probe,
    taskHandlers: (state: TaskStateInfo) => (state.functionLogicalId === 'WorkFn' ? handler : undefined),
  };
}

async function storeWithItems(items: readonly unknown[]): Promise<MemoryPlanStore> {
  const store = new MemoryPlanStore();
  await store.put('fleets/run-1/items.json', items);
  return store;
}

const input = (max: number, tolerated: number, delayMs = 20) => ({
  itemsKey: 'fleets/run-1/items.json',
  prefix: 'fleets/run-1/results',
  max,
  tolerated,
  options: { delayMs },
});

describe('runLocalExecution with a Distributed Map', () => {
  it('never runs more items at once than MaxConcurrencyPath says, and does reach it', async () => {
    // Arrange
    const store = await storeWithItems(Array.from({ length: 7 }, (_, id) => ({ id })));
    const { probe, taskHandlers } = concurrencyProbe();

    // Act
    const result = await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
      input: input(3, 0),
      taskHandlers,
      objectStore: store,
    }).result;

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(probe.maxInFlight).toBe(3);
    expect(probe.started.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('runs every item at once when MaxConcurrency is 0, as Step Functions does', async () => {
    // Arrange
    const store = await storeWithItems(Array.from({ length: 5 }, (_, id) => ({ id })));
    const { probe, taskHandlers } = concurrencyProbe();

    // Act
    await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
      input: input(0, 0),
      taskHandlers,
      objectStore: store,
    }).result;

    // Assert
    expect(probe.maxInFlight).toBe(5);
  });

  it('builds each item input from ItemSelector with the item, its index and the state input', async () => {
    // Arrange
    const store = await storeWithItems([{ id: 10 }, { id: 11 }]);
    const seen: unknown[] = [];
    const { taskHandlers } = concurrencyProbe(async (item) => {
      seen.push(item);
      return { done: item.item.id };
    });

    // Act
    await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
      input: input(1, 0, 1),
      taskHandlers,
      objectStore: store,
    }).result;

    // Assert
    expect(seen).toEqual([
      { options: { delayMs: 1 }, item: { id: 10 }, index: 0 },
      { options: { delayMs: 1 }, item: { id: 11 }, index: 1 },
    ]);
  });

  it('writes the results in the ResultWriter layout and returns where the manifest is', async () => {
    // Arrange
    const store = await storeWithItems([{ id: 1 }, { id: 2, fail: true }, { id: 3 }]);
    const { taskHandlers } = concurrencyProbe(async (item) => ({ done: item.item.id }));

    // Act
    const result = await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
      input: input(1, 1, 1),
      taskHandlers,
      objectStore: store,
    }).result;

    // Assert
    const output = result.output as {
      mapResult: { MapRunArn: string; ResultWriterDetails: { Bucket: string; Key: string } };
    };
    const mapRunId = output.mapResult.MapRunArn.split(':').at(-1);
    expect(output.mapResult.MapRunArn).toMatch(
      /^arn:aws:states:local:000000000000:mapRun:local\/Restart jobs:[0-9a-f-]{36}$/,
    );
    expect(output.mapResult.ResultWriterDetails).toEqual({
      Bucket: FIXTURE_BUCKET,
      Key: `fleets/run-1/results/${mapRunId}/manifest.json`,
    });
    const manifest = (await store.get(output.mapResult.ResultWriterDetails.Key)) as {
      ResultFiles: Record<string, { Key: string; Size: number }[]>;
    };
    expect(manifest).toEqual({
      DestinationBucket: FIXTURE_BUCKET,
      MapRunArn: output.mapResult.MapRunArn,
      ResultFiles: {
        FAILED: [{ Key: `fleets/run-1/results/${mapRunId}/FAILED_0.json`, Size: expect.any(Number) }],
        PENDING: [],
        SUCCEEDED: [{ Key: `fleets/run-1/results/${mapRunId}/SUCCEEDED_0.json`, Size: expect.any(Number) }],
      },
    });
    const succeeded = (await store.get(`fleets/run-1/results/${mapRunId}/SUCCEEDED_0.json`)) as Record<
      string,
      unknown
    >[];
    expect(succeeded.map((r) => JSON.parse(r['Output'] as string))).toEqual([{ done: 1 }, { done: 3 }]);
    expect(succeeded[0]).toEqual({
      ExecutionArn: expect.stringMatching(
        /^arn:aws:states:local:000000000000:execution:local\/Restart jobs:/,
      ),
      Input: JSON.stringify({ options: { delayMs: 1 }, item: { id: 1 }, index: 0 }),
      InputDetails: { Included: true },
      Name: expect.any(String),
      Output: '{"done":1}',
      OutputDetails: { Included: true },
      RedriveCount: 0,
      RedriveStatus: 'NOT_REDRIVABLE',
      RedriveStatusReason: expect.any(String),
      StartDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      StateMachineArn: 'arn:aws:states:local:000000000000:stateMachine:local/Restart jobs',
      Status: 'SUCCEEDED',
      StopDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const failed = (await store.get(`fleets/run-1/results/${mapRunId}/FAILED_0.json`)) as Record<
      string,
      unknown
    >[];
    expect(failed).toEqual([
      expect.objectContaining({
        Status: 'FAILED',
        Error: 'JobFailed',
        Cause: expect.stringContaining('item 2 broke'),
      }),
    ]);
    expect(failed[0]).not.toHaveProperty('Output');
  });

  it('fails the map run once failures pass ToleratedFailureCount, and starts no further item', async () => {
    // Arrange: one at a time, the 2nd and 4th items fail, one failure tolerated.
    const items = [{ id: 1 }, { id: 2, fail: true }, { id: 3 }, { id: 4, fail: true }, { id: 5 }, { id: 6 }];
    const store = await storeWithItems(items);
    const { probe, taskHandlers } = concurrencyProbe();

    // Act
    const result = await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
      input: input(1, 1, 1),
      taskHandlers,
      objectStore: store,
    }).result;

    // Assert
    expect(probe.started).toEqual([1, 2, 3, 4]);
    const output = result.output as { mapError: { Error: string; Cause: string }; mapResult?: unknown };
    expect(result.status).toBe('SUCCEEDED');
    expect(output.mapResult).toBeUndefined();
    expect(output.mapError.Error).toBe('States.ExceedToleratedFailureThreshold');
    expect(output.mapError.Cause).toContain('2 of 6 items failed');
    const pendingKey = store.keys().find((key) => key.endsWith('PENDING_0.json'));
    expect(pendingKey).toBeDefined();
    const pending = (await store.get(pendingKey ?? '')) as { Input: string }[];
    expect(pending.map((p) => JSON.parse(p.Input) as unknown)).toEqual([{ id: 5 }, { id: 6 }]);
  });

  it('fails the map run once failures pass ToleratedFailurePercentage of the items', async () => {
    // Arrange: 4 items, 1 at a time, the 1st and 2nd fail; 25% tolerated (1 item).
    const store = await storeWithItems([{ id: 1, fail: true }, { id: 2, fail: true }, { id: 3 }, { id: 4 }]);
    const { probe, taskHandlers } = concurrencyProbe();
    const { ToleratedFailureCountPath: _count, ...byPercentage } = distributedMapDefinition(lambdaProcessor)
      .States['Restart jobs'] as Record<string, unknown>;
    const definition = {
      StartAt: 'Restart jobs',
      States: {
        'Restart jobs': { ...byPercentage, ToleratedFailurePercentage: 25 },
        Done: { Type: 'Pass', End: true },
      },
    };

    // Act
    const result = await runLocalExecution(definition, {
      input: input(1, 0, 1),
      taskHandlers,
      objectStore: store,
    }).result;

    // Assert
    expect(probe.started).toEqual([1, 2]);
    expect((result.output as { mapError: { Error: string } }).mapError.Error).toBe(
      'States.ExceedToleratedFailureThreshold',
    );
  });

  it("retries the whole map run as the Map state's Retry says", async () => {
    // Arrange: the item list is written only after the first attempt failed to read it.
    const store = new MemoryPlanStore();
    const { probe, taskHandlers } = concurrencyProbe();
    const definition = distributedMapDefinition(lambdaProcessor, {
      Retry: [{ ErrorEquals: ['States.ItemReaderFailed'], IntervalSeconds: 1, MaxAttempts: 1 }],
    });
    let attempts = 0;

    // Act
    const result = await runLocalExecution(definition, {
      input: input(1, 0, 1),
      taskHandlers,
      objectStore: {
        get: async (key) => {
          attempts += 1;
          if (attempts === 1) {
            await store.put(key, [{ id: 1 }]);
            throw new Error('NoSuchKey');
          }
          return store.get(key);
        },
        put: (key, value) => store.put(key, value),
      },
      retryIntervalOverrides: { 'Restart jobs': 0 },
    }).result;

    // Assert
    expect(attempts).toBe(2);
    expect(probe.started).toEqual([1]);
    expect(result.output).toHaveProperty('mapResult.ResultWriterDetails');
  });

  it('stops the items still running when the map run fails, as Step Functions stops them', async () => {
    // Arrange: three at a time; the first fails at once while the other two run long.
    const store = await storeWithItems([{ id: 1, fail: true }, { id: 2 }, { id: 3 }, { id: 4 }]);
    const slow: TaskHandler = async (payload, { signal }) => {
      const item = payload as Item;
      if (item.item.fail) throw Object.assign(new Error('broke'), { name: 'JobFailed' });
      await sleepUnlessAborted(60_000, signal);
      return {};
    };
    const ended: ItemExecutionSummary[] = [];
    const startedAt = Date.now();

    // Act
    const result = await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
      input: input(3, 0),
      taskHandlers: () => slow,
      objectStore: store,
      onItemExecutionEnded: (item) => ended.push(item),
    }).result;

    // Assert
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect((result.output as { mapError: { Error: string } }).mapError.Error).toBe(
      'States.ExceedToleratedFailureThreshold',
    );
    expect(ended.map((e) => e.status).sort()).toEqual(['ABORTED', 'ABORTED', 'FAILED']);
    expect(ended.map((e) => e.index).sort()).toEqual([0, 1, 2]);
  });

  it("keeps the items' history out of the parent's: the parent's history does not grow with the items", async () => {
    // Arrange
    const run = async (count: number) => {
      const store = await storeWithItems(Array.from({ length: count }, (_, id) => ({ id })));
      const items: ItemExecutionSummary[] = [];
      const { taskHandlers } = concurrencyProbe();
      const result = await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
        input: input(10, 0, 1),
        taskHandlers,
        objectStore: store,
        onItemExecutionEnded: (item) => items.push(item),
      }).result;
      return { result, items };
    };

    // Act
    const small = await run(2);
    const large = await run(40);

    // Assert
    expect(large.result.stats.historyEvents).toBe(small.result.stats.historyEvents);
    expect(large.items).toHaveLength(40);
    expect(large.items.every((item) => item.stats.historyEvents > 0)).toBe(true);
  });

  it('reports the Map state as a Map to onStateEntered', async () => {
    // Arrange
    const store = await storeWithItems([{ id: 1 }]);
    const { taskHandlers } = concurrencyProbe();
    const entered: [string, string][] = [];

    // Act
    await runLocalExecution(distributedMapDefinition(lambdaProcessor), {
      input: input(1, 0, 1),
      taskHandlers,
      objectStore: store,
      onStateEntered: (name, type) => entered.push([name, type]),
    }).result;

    // Assert
    expect(entered).toEqual([
      ['Restart jobs', 'Map'],
      ['Done', 'Pass'],
    ]);
  });

  it('refuses before anything runs a map that reads S3 without an object store, or an unbound item Task', () => {
    // Arrange
    const definition = distributedMapDefinition(lambdaProcessor);

    // Act
    const run = () => runLocalExecution(definition, { input: input(1, 0), taskHandlers: () => undefined });

    // Assert
    expect(run).toThrow(TaskBindingError);
    expect(run).toThrow(/"Restart jobs" reads or writes S3 but no objectStore was given/);
    expect(run).toThrow(/in the item processor of "Restart jobs": .*"Work" .* has no local handler/);
  });
});
