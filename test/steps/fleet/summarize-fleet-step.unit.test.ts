// Scenario: a fleet of three jobs ran under the Distributed Map with -max-failed-jobs 0: the first
// job restarted, the second failed, the Map Run then failed on its failure budget and the third
// never started; the plan had skipped a sysbatch job. The results sit in the plan store exactly
// as AWS's ResultWriter lays them out (test/fleet/helpers/map-results.ts).
import { fleetKeys } from '../../../lib/fleet/items';
import type { RunRecord } from '../../../lib/history/record';
import type { HistoryPlace } from '../../../lib/history/run-history';
import { summarizeFleetStep } from '../../../lib/steps/fleet/summarize-fleet-step';
import type { HistoryDeps } from '../../../lib/steps/kit/job-history';
import { MemoryPlanStore } from '../../../lib/stores/plan-store';
import type { FleetState } from '../../../lib/workflow/fleet-state-names';
import {
  failed,
  item,
  RUN_ID,
  resultDocuments,
  runSummary,
  succeeded,
} from '../../fleet/helpers/map-results';

const START = Date.UTC(2026, 11, 7, 2, 0, 0);
const END = START + 600_000;
const TIMING = 'Started 2026-12-07T02:00:00.000Z, finished 2026-12-07T02:10:00.000Z, took 10m0s';
const keys = fleetKeys(RUN_ID);
const [web, api, db] = [
  item('payments', 'web', 1, 3),
  item('payments', 'api', 2, 3),
  item('shop', 'db', 3, 3),
] as const;
const BUDGET_ERROR = {
  Error: 'States.ExceedToleratedFailureThreshold',
  Cause: 'The tolerated failure threshold was exceeded',
};

function fleetState(extra: Partial<FleetState> = {}): FleetState {
  return {
    run: { runId: RUN_ID, startedAt: START },
    plan: {
      itemsKey: keys.items,
      skippedKey: keys.skipped,
      resultsPrefix: keys.results,
      jobs: 3,
      allocations: 12,
      skipped: 1,
      namespaces: ['payments', 'shop', 'batch'],
    },
    budget: { maxJobs: 2, maxFailedJobs: 0 },
    jobOptions: { batchSize: '2' },
    dryRun: false,
    ...extra,
  };
}

/** The plan store after the plan and the Map Run. */
async function planStoreWithResults() {
  const store = new MemoryPlanStore();
  await store.put(keys.items, [web, api, db]);
  await store.put(keys.skipped, [{ namespace: 'batch', job: 'report', reason: { kind: 'sysbatch' } }]);
  const results = resultDocuments(keys.results, {
    SUCCEEDED: [[succeeded(web, runSummary('succeeded'))]],
    FAILED: [
      [
        failed(
          api,
          'RestartFailed',
          '1 error occurred while restarting job:\n* Error restarting allocation "a1": boom',
        ),
      ],
    ],
  });
  for (const [key, value] of results.documents) await store.put(key, value);
  return { store, mapResult: results.mapResult };
}

describe('summarizeFleetStep', () => {
  it('finds the results under the prefix when the Map failed on its budget, and names the job it left', async () => {
    // Arrange
    const { store } = await planStoreWithResults();

    // Act
    const out = await summarizeFleetStep(
      { planStore: store, now: () => END },
      fleetState({ mapError: BUDGET_ERROR }),
    );

    // Assert
    expect(out).toMatchObject({
      outcome: 'finished-with-errors',
      restarted: 1,
      failed: 1,
      skipped: 2,
      duration: '10m0s',
    });
    expect(out.lines).toEqual([
      'Fleet restart finished with errors: 1 jobs restarted, 1 failed, 2 skipped',
      '  payments/api: failed: RestartFailed: Error restarting allocation "a1": boom',
      '  shop/db: not reached: the failure budget (-max-failed-jobs 0) ran out',
      '  batch/report: skipped: sysbatch jobs are not restarted',
      TIMING,
    ]);
  });

  it("reads the manifest the Map's output names", async () => {
    // Arrange
    const { store, mapResult } = await planStoreWithResults();
    await store.put(`${keys.results}/stale-run/manifest.json`, {
      ResultFiles: { SUCCEEDED: [{ Key: 'missing' }] },
    });

    // Act
    const out = await summarizeFleetStep({ planStore: store, now: () => END }, fleetState({ mapResult }));

    // Assert
    expect(out.restarted).toBe(1);
    expect(out.lines[2]).toBe('  shop/db: not reached: the fleet run was stopped');
  });

  it('writes the whole report and ends the run documents', async () => {
    // Arrange
    const { store, mapResult } = await planStoreWithResults();

    // Act
    await summarizeFleetStep({ planStore: store, now: () => END }, fleetState({ mapResult }));

    // Assert
    const report = (await store.get(keys.report)) as { jobs: { job: string; status: string }[] };
    expect(report.jobs.map((j) => [j.job, j.status])).toEqual([
      ['web', 'restarted'],
      ['api', 'failed'],
      ['db', 'skipped'],
      ['report', 'skipped'],
    ]);
    expect((await store.list(keys.prefix)).every((key) => store.isEnded(key))).toBe(true);
  });

  it('emits the fleet-finished event the terminal prints as the summary block', async () => {
    // Arrange
    const { store } = await planStoreWithResults();

    // Act
    const out = await summarizeFleetStep(
      { planStore: store, now: () => END },
      fleetState({ mapError: BUDGET_ERROR }),
    );

    // Assert
    expect(out.events).toEqual([
      expect.objectContaining({
        type: 'fleet-finished',
        time: END,
        restarted: 1,
        failed: 1,
        skipped: 2,
        withErrors: true,
        omittedProblems: 0,
        report: keys.report,
      }),
    ]);
  });

  it('names the window as why the jobs left were not reached once it ended', async () => {
    // Arrange
    const store = new MemoryPlanStore();
    await store.put(keys.items, [web]);
    await store.put(keys.skipped, []);
    const state = fleetState({
      jobOptions: { windowDuration: '5m', trigger: 'schedule', scheduleName: 'weekly' },
      mapResult: resultDocuments(keys.results, {}).mapResult,
    });
    const { documents } = resultDocuments(keys.results, {});
    for (const [key, value] of documents) await store.put(key, value);

    // Act
    const out = await summarizeFleetStep({ planStore: store, now: () => END }, state);

    // Assert
    expect(out.lines).toEqual([
      'Fleet restart finished with errors: 0 jobs restarted, 0 failed, 1 skipped',
      '  payments/web: not reached: the maintenance window ended',
      TIMING,
    ]);
  });

  it('reads no results for a dry run, which never ran the Map', async () => {
    // Arrange
    const store = new MemoryPlanStore();
    await store.put(keys.items, [web, api]);
    await store.put(keys.skipped, []);

    // Act
    const out = await summarizeFleetStep({ planStore: store, now: () => END }, fleetState({ dryRun: true }));

    // Assert
    expect(out.lines).toEqual([
      'Fleet dry run: would restart 8 allocations of 2 jobs, 0 skipped; nothing was changed',
      TIMING,
    ]);
  });

  it('keeps the output of a 5,000-job fleet whose every job failed far under 256 KiB', async () => {
    // Arrange
    const store = new MemoryPlanStore();
    const many = Array.from({ length: 5000 }, (_, i) =>
      item(`namespace-${i % 9}`, `job-${'x'.repeat(80)}-${i}`, i + 1, 5000),
    );
    await store.put(keys.items, many);
    await store.put(keys.skipped, []);
    const cause = `1 error occurred while restarting job:\n* ${'Nomad refused the restart. '.repeat(30)}`;
    const { documents, mapResult } = resultDocuments(keys.results, {
      FAILED: [many.map((it) => failed(it, 'RestartFailed', cause))],
    });
    for (const [key, value] of documents) await store.put(key, value);

    // Act
    const out = await summarizeFleetStep({ planStore: store, now: () => END }, fleetState({ mapResult }));

    // Assert
    expect(out.failed).toBe(5000);
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThan(128 * 1024);
    expect(((await store.get(keys.report)) as { jobs: unknown[] }).jobs).toHaveLength(5000);
  });

  it('refuses an item list that is not a list, naming its key', async () => {
    // Arrange
    const store = new MemoryPlanStore();
    await store.put(keys.items, { not: 'a list' });

    // Act / Assert
    await expect(summarizeFleetStep({ planStore: store, now: () => END }, fleetState())).rejects.toThrow(
      `Plan store object "${keys.items}" is not a JSON array`,
    );
  });
  it("writes the fleet's final record, with who stopped it, where Plan fleet put the provisional one", async () => {
    // Arrange: the run history's edge, faked: the writes it receives.
    const { store, mapResult } = await planStoreWithResults();
    const puts: [HistoryPlace, RunRecord][] = [];
    const history: HistoryDeps = {
      store: {
        put: async (place, record) => void puts.push([place, record]),
        endUnfinished: async () => false,
        read: async () => ({ records: [], unreadable: 0 }),
        places: async () => [],
      },
      engine: 'aws',
      warn: () => {},
    };
    const ref = { namespace: 'payments', options: '-namespace=payments', engine: 'aws' as const };
    const state = fleetState({ mapResult, run: { runId: RUN_ID, startedAt: START, history: ref } });

    // Act
    await summarizeFleetStep(
      { planStore: store, now: () => END, history, stoppedBy: 'U0AAAAAAA (Slack)' },
      state,
    );

    // Assert
    expect(puts).toEqual([
      [
        { namespace: 'payments', fleets: true },
        expect.objectContaining({
          runId: RUN_ID,
          kind: 'fleet',
          outcome: 'failed',
          stoppedBy: 'U0AAAAAAA (Slack)',
          counts: { planned: 3, restarted: 1, failed: 1, skipped: 1, notReached: 1 },
          jobOutcomes: { succeeded: 1, failed: 1 },
          endedAt: END,
        }),
      ],
    ]);
  });
});
