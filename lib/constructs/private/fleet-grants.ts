/**
 * The fleet functions' access to the plan bucket: each under `fleets/` only (`fleetKeys`), and
 * "Plan fleet" under `fleet-cache/` too (the jobs' reads it keeps between runs); and to the lock
 * table, for the fleet's run-control item (lib/steps/fleet/fleet-control-item.ts); and
 * "Plan fleet" reads the fleet's `stopOnAlarms` once (lib/steps/alarms/alarms-exist.ts).
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { FLEET_CACHE_PREFIX } from '../../fleet/items';
import { FLEET_RUNS_PREFIX } from '../../workflow/fleet-plan-store';
import type { FleetHandlerId } from '../../workflow/fleet-state-names';
import { grantPlanObjects } from './handler-grants';

/** Object actions per fleet function on `fleets/*`. */
export const FLEET_PLAN_ACCESS: Readonly<Record<FleetHandlerId, readonly string[]>> = {
  // Writes the item list and the skipped list.
  'plan-fleet': ['s3:PutObject'],
  // Reads the Map Run's manifest and result files, the item and skipped lists; writes the report;
  // ends the run's documents (S3PlanStore.endRun tags each one it lists).
  'summarize-fleet': ['s3:GetObject', 's3:PutObject', 's3:PutObjectTagging'],
};

/**
 * Actions per fleet function on the lock table's item of the fleet: "Plan fleet" takes it (a
 * refresh in place first, `UpdateItem`, for a retried plan; else `PutItem`; `GetItem` reads the
 * holder back when another run holds the name), "Summarize fleet" reads it (a `stop` request's
 * requester, for the fleet's record) and deletes it. Exact table ARN, no index: neither reads by owner.
 */
export const FLEET_LOCK_ACCESS: Readonly<Record<FleetHandlerId, readonly string[]>> = {
  'plan-fleet': ['dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:GetItem'],
  'summarize-fleet': ['dynamodb:GetItem', 'dynamodb:DeleteItem'],
};

/** Grants each fleet function what its step does in the plan bucket and the lock table. */
export function grantFleetHandlerAccess(
  scope: Construct,
  r: {
    readonly functions: Readonly<Record<FleetHandlerId, lambda.IFunction>>;
    readonly planBucket: s3.Bucket;
    readonly lockTable: dynamodb.Table;
  },
): void {
  for (const [handlerId, actions] of Object.entries(FLEET_LOCK_ACCESS)) {
    r.functions[handlerId as FleetHandlerId].addToRolePolicy(
      new iam.PolicyStatement({ actions: [...actions], resources: [r.lockTable.tableArn] }),
    );
  }
  for (const [handlerId, actions] of Object.entries(FLEET_PLAN_ACCESS)) {
    grantPlanObjects(scope, {
      fn: r.functions[handlerId as FleetHandlerId],
      planBucket: r.planBucket,
      prefix: FLEET_RUNS_PREFIX,
      actions,
      why: "A fleet run's documents are under fleets/<run>/",
    });
  }
  // Reads (a missing document is a 404 with the listing grant, not a 403) and writes the jobs'
  // reads by JobModifyIndex (lib/steps/fleet/job-reads-cache.ts).
  grantPlanObjects(scope, {
    fn: r.functions['plan-fleet'],
    planBucket: r.planBucket,
    prefix: FLEET_CACHE_PREFIX,
    actions: ['s3:GetObject', 's3:PutObject'],
    why: "The jobs' reads a fleet keeps for the next run are under fleet-cache/",
  });
  // As the one-job functions' alarm reads (handler-grants.ts): the names come with each run, and
  // composite alarms are answered only on "*"
  // (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html).
  r.functions['plan-fleet'].addToRolePolicy(
    new iam.PolicyStatement({ actions: ['cloudwatch:DescribeAlarms'], resources: ['*'] }),
  );
}
