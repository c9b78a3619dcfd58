/**
 * A DynamoDB emulator for tests where DynamoDB's own semantics decide the outcome (conditional
 * writes racing for one lock or one decision, GSI queries): dynalite, an open-source
 * implementation of the DynamoDB API, in a child process on 127.0.0.1, reached by the real
 * `@aws-sdk/client-dynamodb` over HTTP. Its tables are created from the synthesized stack's own
 * `AWS::DynamoDB::Table` resources, so the keys and indexes tested are the ones deployed.
 *
 * Why not AWS's DynamoDB Local: it is published under the vendor's own licence terms, not an
 * open-source licence, and this project may not depend on it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { cachedStack } from '../../aws-limits/helpers/cached-stack';

/** The workflow's tables as the stack declares them, by their construct id. */
export type WorkflowTableId = 'LockTable' | 'ApprovalsTable';

/** A running emulator and a client for it. */
export interface DynamoDbEmulator {
  /** `http://127.0.0.1:<port>`: give it to any DynamoDB client as `endpoint`. */
  readonly endpoint: string;
  /** A real SDK client pointed at the emulator (fake credentials). */
  readonly client: DynamoDBClient;
  /** A new client of its own (two "processes" racing each use one). */
  newClient(): DynamoDBClient;
  /** Creates a fresh copy of one of the workflow's tables under a unique name and returns the name. */
  createTable(id: WorkflowTableId): Promise<string>;
  /** Stops the emulator (every table goes with it). */
  close(): Promise<void>;
}

const LAUNCHER = `
const server = require('dynalite')({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('disconnect', () => process.exit(0));
`;

type TableProperties = Record<string, unknown> & { KeySchema: unknown; AttributeDefinitions: unknown };
let tableProperties: Map<string, TableProperties> | undefined;

/**
 * The `Properties` of each `AWS::DynamoDB::Table` in the synthesized stack, by construct id. The
 * template comes through the test template cache: a file that starts the emulator loads no CDK.
 */
async function workflowTables(): Promise<Map<string, TableProperties>> {
  if (tableProperties !== undefined) return tableProperties;
  const resources = (await cachedStack()).template['Resources'] as Record<string, Record<string, unknown>>;
  tableProperties = new Map();
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (resource['Type'] !== 'AWS::DynamoDB::Table') continue;
    const id = /(LockTable|ApprovalsTable)/.exec(logicalId)?.[1];
    if (id !== undefined) tableProperties.set(id, resource['Properties'] as TableProperties);
  }
  return tableProperties;
}

function clientFor(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
}

/** How long a `beforeAll` that starts the emulator may take: it may synthesize the stack (a stale cache). */
export const EMULATOR_START_TIMEOUT_MS = 120_000;

/**
 * Starts dynalite on a free loopback port and reads the stack's table definitions; resolves once
 * it accepts requests. Call it in a `beforeAll` given {@link EMULATOR_START_TIMEOUT_MS}.
 */
export async function startDynamoDbEmulator(): Promise<DynamoDbEmulator> {
  await workflowTables();
  const child: ChildProcess = spawn(process.execPath, ['-e', LAUNCHER], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const stdout = child.stdout;
  if (stdout === null) throw new Error('dynalite: no stdout');
  const [line] = (await Promise.race([
    once(createInterface({ input: stdout }), 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`dynalite exited with code ${String(code)} before listening`);
    }),
  ])) as [string];
  const endpoint = `http://127.0.0.1:${Number(line)}`;
  const client = clientFor(endpoint);
  const clients: DynamoDBClient[] = [client];
  return {
    endpoint,
    client,
    newClient: () => {
      const c = clientFor(endpoint);
      clients.push(c);
      return c;
    },
    createTable: async (id) => {
      const properties = (await workflowTables()).get(id);
      if (properties === undefined) throw new Error(`The stack declares no ${id}`);
      const name = `${id}-${randomUUID()}`;
      await client.send(
        new CreateTableCommand({
          TableName: name,
          KeySchema: properties.KeySchema,
          AttributeDefinitions: properties.AttributeDefinitions,
          BillingMode: 'PAY_PER_REQUEST',
          GlobalSecondaryIndexes: properties['GlobalSecondaryIndexes'],
        } as ConstructorParameters<typeof CreateTableCommand>[0]),
      );
      // dynalite answers CreateTable while the table is still CREATING; on a loaded machine the
      // next request can come before it is ACTIVE and fail with ResourceNotFoundException.
      await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: name });
      return name;
    },
    close: async () => {
      for (const c of clients) c.destroy();
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}

/** The emulator of a test file and the table of the test running now. */
export interface EmulatedTable {
  readonly db: DynamoDbEmulator;
  /** This test's table (the deployed keys and indexes), empty at its start. */
  readonly table: string;
}

/**
 * Starts the emulator for the test file (or `describe` block) calling this, once, and gives each
 * test a fresh `id` table. Read the fields inside tests and hooks only.
 */
export function emulatedTable(id: WorkflowTableId): EmulatedTable {
  let db: DynamoDbEmulator | undefined;
  let table: string | undefined;
  beforeAll(async () => {
    db = await startDynamoDbEmulator();
  }, EMULATOR_START_TIMEOUT_MS);
  afterAll(() => db?.close());
  beforeEach(async () => {
    table = await started().createTable(id);
  });
  function started(): DynamoDbEmulator {
    if (db === undefined) throw new Error('the emulator is started in beforeAll');
    return db;
  }
  return {
    get db() {
      return started();
    },
    get table() {
      if (table === undefined) throw new Error('the table is made in beforeEach');
      return table;
    },
  };
}

/**
 * Starts the emulator for the test file calling this, once, and sets what a handler reads to use
 * it as Lambda would (region, credentials, the DynamoDB endpoint, quiet logs), restoring the
 * environment afterwards. The job's shared lock in Nomad is off: DynamoDB decides here, and that
 * lock is tested against the simulator. Each test makes its own tables and sets their variables.
 */
export function emulatedHandlerEnvironment(): { readonly db: DynamoDbEmulator } {
  const envBefore = { ...process.env };
  let db: DynamoDbEmulator | undefined;
  beforeAll(async () => {
    db = await startDynamoDbEmulator();
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL_DYNAMODB: db.endpoint,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      NOMAD_RESTART_VARIABLES_LOCK: 'false',
    });
  }, EMULATOR_START_TIMEOUT_MS);
  afterAll(async () => {
    process.env = { ...envBefore };
    await db?.close();
  });
  return {
    get db() {
      if (db === undefined) throw new Error('the emulator is started in beforeAll');
      return db;
    },
  };
}
