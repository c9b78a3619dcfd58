/**
 * Scenario: a fleet run's documents in the plan bucket, written and ended the way the S3 plan store
 * does it on AWS, each call checked against the calling function's role in the synthesized
 * template (s3rver behind): "Plan fleet" writes the item and skipped lists under `fleets/<run>/`;
 * "Summarize fleet" reads them and the Map Run's result files, writes the report, and ends the
 * run (ListObjectsV2 under the prefix, PutObjectTagging on each key). Neither may touch a one-job
 * run's documents. "Plan fleet" also keeps the jobs' reads for the next run under `fleet-cache/`:
 * the first run finds none (a 404, with its listing grant, not a 403), the next reads them back.
 */
import { S3ServiceException } from '@aws-sdk/client-s3';
import { fleetKeys } from '../../lib/fleet/items';
import { loadJobReads, saveJobReads } from '../../lib/steps/fleet/job-reads-cache';
import { planStoreFromEnv } from '../../lib/stores/from-env';
import { useEmulatedAws } from './helpers/emulated-aws';
import { asFunction } from './helpers/iam-check';

const aws = useEmulatedAws();
const keys = fleetKeys('weekly-payments-2026-12-06');

describe("a fleet run's documents on S3, as AWS authorizes them", () => {
  it('are written by Plan fleet, then read, reported and ended by Summarize fleet', async () => {
    // Arrange
    await asFunction('plan-fleet', async () => {
      await planStoreFromEnv().put(keys.items, []);
      await planStoreFromEnv().put(keys.skipped, []);
    });
    // The Map Run's results, written by Step Functions under the role the fleet-role test checks.
    await planStoreFromEnv().put(`${keys.results}/run-1/manifest.json`, { ResultFiles: {} });

    // Act
    await asFunction('summarize-fleet', async () => {
      const store = planStoreFromEnv();
      await store.get(keys.items);
      await store.get(keys.skipped);
      await store.get(`${keys.results}/run-1/manifest.json`);
      await store.put(keys.report, { jobs: [] });
      await store.endRun(keys.prefix);
    });

    // Assert
    expect(aws.ledger.denied()).toEqual([]);
    const actions = (fn: string) => [
      ...new Set(aws.ledger.calls.filter((c) => c.functionName === fn).map((c) => c.request.action)),
    ];
    expect(actions('plan-fleet')).toEqual(['s3:PutObject']);
    expect(actions('summarize-fleet').sort()).toEqual(
      ['s3:GetObject', 's3:ListBucket', 's3:PutObject', 's3:PutObjectTagging'].sort(),
    );
  });

  it("are the jobs' reads Plan fleet keeps for the next run: none at first, then what it wrote", async () => {
    // Arrange
    const reads = {
      index: 42,
      reads: { variables: [{ path: 'nomad/jobs/shared/db', prefix: false }], secrets: [], opaque: [] },
    };

    // Act
    const first = await asFunction('plan-fleet', () => loadJobReads(planStoreFromEnv()));
    await asFunction('plan-fleet', () =>
      saveJobReads(planStoreFromEnv(), new Map([['payments/checkout', reads]])),
    );
    const next = await asFunction('plan-fleet', () => loadJobReads(planStoreFromEnv()));

    // Assert
    expect(aws.ledger.denied()).toEqual([]);
    expect(first.size).toBe(0);
    expect(next).toEqual(new Map([['payments/checkout', reads]]));
  });

  it.each(['plan-fleet', 'summarize-fleet'])(
    "refuses %s a one-job run's documents as S3 does",
    async (fn) => {
      // Act
      const error = await asFunction(fn, () => planStoreFromEnv().put('runs/r1/plan', {})).catch(
        (e: unknown) => e,
      );

      // Assert
      expect(error).toBeInstanceOf(S3ServiceException);
      expect(error).toMatchObject({ name: 'AccessDenied' });
      expect(aws.ledger.takeDenied().map((c) => c.request.action)).toEqual(['s3:PutObject']);
    },
  );
});
