// Scenario: "Summarize fleet" as the Lambda runtime calls it, through the handlers' middleware
// chain, with no bucket configured (the process-wide plan store a local run uses): a fleet of one
// job whose Map Run restarted it, and a wiring bug that hands the task something else.

import { handler } from '../../lambdas/summarize-fleet';
import { fleetKeys } from '../../lib/fleet/items';
import { localStores } from '../../lib/stores/from-env';
import type { FleetState } from '../../lib/workflow/fleet-state-names';
import { item, RUN_ID, resultDocuments, runSummary, succeeded } from '../fleet/helpers/map-results';
import { lambdaContext } from './helpers/fixtures';

const keys = fleetKeys(`${RUN_ID}-handler`);
const web = item('payments', 'web', 1, 1);

describe('summarize-fleet handler', () => {
  it('answers the summary the state machine routes on, redrive wrapper and all', async () => {
    // Arrange
    const store = localStores.planStore;
    await store.put(keys.items, [web]);
    await store.put(keys.skipped, []);
    const { documents, mapResult } = resultDocuments(keys.results, {
      SUCCEEDED: [[succeeded(web, runSummary('succeeded'))]],
    });
    for (const [key, value] of documents) await store.put(key, value);
    const state: FleetState = {
      run: { runId: `${RUN_ID}-handler`, startedAt: Date.now() },
      plan: {
        itemsKey: keys.items,
        skippedKey: keys.skipped,
        resultsPrefix: keys.results,
        jobs: 1,
        allocations: 4,
        skipped: 0,
        namespaces: [],
      },
      budget: { maxJobs: 1, maxFailedJobs: 0 },
      jobOptions: {},
      dryRun: false,
      mapResult,
    };

    // Act
    const out = await handler({ state, redriveCount: 0 }, lambdaContext());

    // Assert
    expect(out).toMatchObject({ outcome: 'finished', restarted: 1, report: keys.report });
    expect(out.lines[0]).toBe('Fleet restart finished: 1 jobs restarted, 0 failed, 0 skipped');
    expect(out.text).toBe(out.lines.join('\n'));
  });

  it('fails naming the field when the input is not a fleet state', async () => {
    // Act / Assert
    await expect(handler({ run: { runId: 'r', startedAt: 1 } }, lambdaContext())).rejects.toMatchObject({
      name: 'StepPayloadError',
      message: expect.stringContaining('Task input is not a fleet state at "plan"'),
    });
  });
});
