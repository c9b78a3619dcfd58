/**
 * The handlers' AWS stores, for real, on 127.0.0.1, with IAM enforced: the S3 plan store on
 * s3rver, the lock and approvals tables on dynalite (dynamodb-emulator.ts), reached by the real
 * SDK clients the stores make from the environment the construct sets (`PLAN_BUCKET`,
 * `LOCK_TABLE`, `APPROVALS_TABLE`, plus `AWS_ENDPOINT_URL_S3`/`_DYNAMODB`), and every call a
 * function makes checked against its role in the full stack's template (iam-check.ts).
 *
 * Why s3rver: a maintained S3 emulator on npm that runs in-process with no other runtime
 * (moto's server needs Python), and that implements what the plan store calls: GetObject
 * (NoSuchKey), PutObject, ListObjectsV2 with a prefix and continuation, PutObjectTagging.
 *
 * Call `useEmulatedAws()` at the top of a test file: it starts both emulators once, gives each
 * test empty stores, and fails a test in which any function made a call AWS would deny, with
 * the evaluator's explanation, even when the run swallowed the error.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { LOCK_TABLE_SCHEMA } from '../../../lib/stores/dynamodb-job-lock';
import { ENV } from '../../../lib/stores/from-env';
import { type LockKey, lockKeyString } from '../../../lib/stores/job-lock';
import {
  type DynamoDbEmulator,
  EMULATOR_START_TIMEOUT_MS,
  startDynamoDbEmulator,
} from '../../stores/helpers/dynamodb-emulator';
import { recordExercised } from './exercised-operations';
import { fullStackTemplate } from './full-stack-template';
import { IamCheck, IamLedger, installIamCheck } from './iam-check';
import { TemplateIam } from './template-iam';

/** The stores of the test running now, and the calls checked in this file. */
export interface EmulatedAws {
  readonly bucket: string;
  readonly lockTable: string;
  readonly approvalsTable: string;
  /** Every call checked in this file so far. */
  readonly ledger: IamLedger;
  /** The IAM check (tests evaluate a call directly). */
  readonly check: IamCheck;
  /** The run holding `key`'s lock in the lock table, if any (read outside any function). */
  lockHolder(key: LockKey): Promise<string | undefined>;
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

function logicalIdOf(template: Record<string, unknown>, type: string, pattern: RegExp): string {
  const found = Object.entries(template['Resources'] as Record<string, { Type: string }>)
    .filter(([id, r]) => r.Type === type && pattern.test(id))
    .map(([id]) => id);
  if (found.length !== 1)
    throw new Error(`Expected one ${type} matching ${String(pattern)}: ${found.join(', ')}`);
  return found[0] as string;
}

/** Starts the emulators and the IAM check for the calling test file. */
export function useEmulatedAws(): EmulatedAws {
  let template: Record<string, unknown> = {};
  let ids = { bucket: '', lock: '', approvals: '' };
  const ledger = new IamLedger();
  const savedEnv = { ...process.env };
  let db: DynamoDbEmulator | undefined;
  let bucket = '';
  let lockTable = '';
  let approvalsTable = '';
  let seq = 0;
  let check: IamCheck | undefined;
  let uninstall = () => {};
  let s3: S3Client | undefined;
  let close = async () => {};

  beforeAll(async () => {
    template = await fullStackTemplate();
    ids = {
      bucket: logicalIdOf(template, 'AWS::S3::Bucket', /PlanBucket/),
      lock: logicalIdOf(template, 'AWS::DynamoDB::Table', /LockTable/),
      approvals: logicalIdOf(template, 'AWS::DynamoDB::Table', /ApprovalsTable/),
    };
    const started = await startDynamoDbEmulator();
    db = started;
    const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
    const { port } = await server.run();
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      AWS_ENDPOINT_URL_DYNAMODB: started.endpoint,
    });
    s3 = new S3Client({ region: 'us-east-1', credentials: CREDENTIALS });
    uninstall = installIamCheck(() => {
      if (check === undefined) throw new Error('the IAM check is made in beforeEach');
      return check;
    });
    close = async () => {
      s3?.destroy();
      await started.close();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    };
  }, EMULATOR_START_TIMEOUT_MS);

  beforeEach(async () => {
    if (db === undefined) throw new Error('the emulators start in beforeAll');
    seq += 1;
    bucket = `plans-${process.pid}-${seq}`;
    await s3?.send(new CreateBucketCommand({ Bucket: bucket }));
    [lockTable, approvalsTable] = await Promise.all([
      db.createTable('LockTable'),
      db.createTable('ApprovalsTable'),
    ]);
    Object.assign(process.env, {
      [ENV.planBucket]: bucket,
      [ENV.lockTable]: lockTable,
      [ENV.approvalsTable]: approvalsTable,
    });
    check = new IamCheck(
      new TemplateIam(template, {
        [ids.bucket]: bucket,
        [ids.lock]: lockTable,
        [ids.approvals]: approvalsTable,
      }),
      ledger,
    );
  });

  // A test fails on any call AWS would have denied, even one the run caught and reported.
  let checkedBefore = 0;
  afterEach(() => {
    const denials = ledger.denialReport(checkedBefore);
    checkedBefore = ledger.calls.length;
    if (denials.length > 0) throw new Error(`AWS would have denied:\n${denials.join('\n')}`);
  });

  afterAll(async () => {
    uninstall();
    // A file that enforced IAM but saw no call ran its handlers on the in-memory stores.
    if (ledger.calls.length === 0) throw new Error('useEmulatedAws: no AWS call was checked in this file');
    await close();
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
    const testPath = expect.getState().testPath;
    if (testPath !== undefined) {
      const actions = Object.fromEntries(
        Object.entries(ledger.countsByFunction()).map(([fn, counts]) => [fn, Object.keys(counts).sort()]),
      );
      recordExercised(process.cwd(), testPath, actions);
    }
    // `IAM_CHECK_REPORT=<file>` collects the calls checked per function and action, per test file.
    const report = savedEnv['IAM_CHECK_REPORT'];
    if (report !== undefined) {
      appendFileSync(
        report,
        `${JSON.stringify({ file: expect.getState().testPath, calls: ledger.countsByFunction() })}\n`,
      );
    }
  });

  return {
    get bucket() {
      return bucket;
    },
    get lockTable() {
      return lockTable;
    },
    get approvalsTable() {
      return approvalsTable;
    },
    ledger,
    lockHolder: async (key) => {
      const dynamodb = new DynamoDBClient({});
      try {
        const out = await dynamodb.send(
          new GetItemCommand({
            TableName: lockTable,
            Key: { [LOCK_TABLE_SCHEMA.partitionKey]: { S: lockKeyString(key) } },
          }),
        );
        return out.Item?.[LOCK_TABLE_SCHEMA.ownerAttribute]?.S;
      } finally {
        dynamodb.destroy();
      }
    },
    get check() {
      if (check === undefined) throw new Error('the IAM check is installed in beforeEach');
      return check;
    },
  };
}
