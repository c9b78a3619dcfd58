// Scenario: "Summarize fleet" on the S3 plan store over real HTTP (s3rver on 127.0.0.1), as on AWS:
// the Map Run failed on its failure budget, so its output names no manifest and the step finds
// it by listing the results prefix (ListObjectsV2); it reads the result files in AWS's layout,
// writes the report and tags every document of the fleet run as ended. (IAM for the summarize
// function's role is checked with the fleet stack, test/iam/.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectTaggingCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { type FleetJobItem, fleetKeys } from '../../../lib/fleet/items';
import { summarizeFleetStep } from '../../../lib/steps/fleet/summarize-fleet-step';
import { S3PlanStore } from '../../../lib/stores/s3-plan-store';
import type { FleetState } from '../../../lib/workflow/fleet-state-names';
import {
  failed,
  item,
  RUN_ID,
  resultDocuments,
  runSummary,
  succeeded,
} from '../../fleet/helpers/map-results';

const BUCKET = 'plans';
const keys = fleetKeys(RUN_ID);
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

let s3: S3Client;
let close = async () => {};

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-fleet-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  s3 = new S3Client({
    region: 'us-east-1',
    credentials: CREDENTIALS,
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
  });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  close = async () => {
    s3.destroy();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  };
});

afterAll(() => close());

describe('summarizeFleetStep on the S3 plan store', () => {
  it('finds the manifest by listing, reads the results, writes the report and ends the documents', async () => {
    // Arrange
    const store = new S3PlanStore(s3, BUCKET);
    const [first, second, third] = [1, 2, 3].map((n) => item('payments', `job-${n}`, n, 3)) as [
      FleetJobItem,
      FleetJobItem,
      FleetJobItem,
    ];
    const jobs = [first, second, third];
    await store.put(keys.items, jobs);
    await store.put(keys.skipped, [{ namespace: 'batch', job: 'report', reason: { kind: 'sysbatch' } }]);
    const { documents } = resultDocuments(keys.results, {
      SUCCEEDED: [[succeeded(first, runSummary('succeeded'))]],
      FAILED: [[failed(second, 'RestartFailed', 'boom')]],
    });
    for (const [key, value] of documents) await store.put(key, value);
    const state: FleetState = {
      run: { runId: RUN_ID, startedAt: Date.UTC(2026, 11, 7, 2) },
      plan: {
        itemsKey: keys.items,
        skippedKey: keys.skipped,
        resultsPrefix: keys.results,
        jobs: 3,
        allocations: 12,
        skipped: 1,
        namespaces: [],
      },
      budget: { maxJobs: 1, maxFailedJobs: 0 },
      jobOptions: {},
      dryRun: false,
      mapError: { Error: 'States.ExceedToleratedFailureThreshold', Cause: '' },
    };

    // Act
    const out = await summarizeFleetStep({ planStore: store, now: () => Date.UTC(2026, 11, 7, 3) }, state);

    // Assert
    expect(out.lines).toEqual([
      'Fleet restart finished with errors: 1 jobs restarted, 1 failed, 2 skipped',
      '  payments/job-2: failed: RestartFailed: boom',
      '  payments/job-3: not reached: the failure budget (-max-failed-jobs 0) ran out',
      '  batch/report: skipped: sysbatch jobs are not restarted',
      'Started 2026-12-07T02:00:00.000Z, finished 2026-12-07T03:00:00.000Z, took 1h0m0s',
    ]);
    await expect(store.get(keys.report)).resolves.toMatchObject({
      runId: RUN_ID,
      outcome: 'finished-with-errors',
    });
    const stored = await store.list(keys.prefix);
    expect(stored).toContain(keys.report);
    const tags = await Promise.all(
      stored.map(async (Key) => (await s3.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key }))).TagSet),
    );
    expect(tags.every((set) => set?.some((t) => t.Key === 'nomad-restart-run' && t.Value === 'ended'))).toBe(
      true,
    );
  });
});
