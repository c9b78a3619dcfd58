// Scenario: an AWS SDK client made with the project's one configuration meets an endpoint that
// accepts the connection and never answers (what a function in a VPC meets through a half-open
// route): the call fails within the request timeout, not the Lambda's, and its error names the
// service, the operation and the address. A server on 127.0.0.1 stands in for the endpoint.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import {
  awsClientConfig,
  LAMBDA_AWS_TIMEOUTS,
  nameAwsTimeouts,
  TERMINAL_AWS_TIMEOUTS,
} from '../../lib/stores/aws-client-config';

let server: Server;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  // Accepts and stays silent: no byte is ever written back.
  server = createServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  port = address.port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

describe('awsClientConfig', () => {
  it('gives every client a connection and a request timeout that throws', async () => {
    // Arrange
    const client = new SFNClient({ region: 'eu-west-1', credentials, ...awsClientConfig() });

    // Act
    const handler = client.config.requestHandler as unknown as {
      httpHandlerConfigs(): Record<string, unknown>;
      configProvider: Promise<Record<string, unknown>>;
    };
    const resolved = await handler.configProvider;

    // Assert
    expect(resolved).toMatchObject({
      connectionTimeout: LAMBDA_AWS_TIMEOUTS.connectionTimeoutMs,
      requestTimeout: LAMBDA_AWS_TIMEOUTS.requestTimeoutMs,
      throwOnRequestTimeout: true,
    });
    client.destroy();
  });

  it('lets a missing route fail all three attempts inside the shortest function timeout', () => {
    // Act: a VPC without the endpoint drops the connection attempt; each attempt waits this long.
    const unreachable = 3 * LAMBDA_AWS_TIMEOUTS.connectionTimeoutMs;

    // Assert: the functions that never call Nomad run 30 s (lib/constructs/private/task-functions.ts).
    expect(unreachable).toBeLessThan(30_000);
    expect(TERMINAL_AWS_TIMEOUTS.connectionTimeoutMs).toBeGreaterThanOrEqual(
      LAMBDA_AWS_TIMEOUTS.connectionTimeoutMs,
    );
  });
});

describe('nameAwsTimeouts', () => {
  it('fails a call to a silent endpoint within the request timeout, naming service, operation and address', async () => {
    // Arrange
    const client = nameAwsTimeouts(
      new DynamoDBClient({
        region: 'eu-west-1',
        credentials,
        endpoint: `http://127.0.0.1:${port}`,
        maxAttempts: 1,
        ...awsClientConfig({ connectionTimeoutMs: 1_000, requestTimeoutMs: 300 }),
      }),
    );
    const started = Date.now();

    // Act
    const error = await client
      .send(new GetItemCommand({ TableName: 'locks', Key: { pk: { S: 'job' } } }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );

    // Assert
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('TimeoutError');
    expect((error as Error).message).toMatch(
      new RegExp(`^DynamoDB GetItem to http://127\\.0\\.0\\.1:${port}/ timed out: .*300 ms requestTimeout`),
    );
    expect((error as Error).message).toContain('docs/deploying.md, "Running in a VPC"');
    // Lower bound only is reliable on a shared machine; the upper one is generous.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(10_000);
    client.destroy();
  });

  it('leaves errors other than timeouts as they are', async () => {
    // Arrange: nothing listens on the closed port.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = nameAwsTimeouts(
      new SFNClient({
        region: 'eu-west-1',
        credentials,
        endpoint: `http://127.0.0.1:${closedPort}`,
        maxAttempts: 1,
        ...awsClientConfig(),
      }),
    );

    // Act
    const error = await client
      .send(
        new DescribeExecutionCommand({ executionArn: 'arn:aws:states:eu-west-1:123456789012:execution:m:e' }),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );

    // Assert
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).not.toContain('timed out');
    client.destroy();
  });
});

describe('the sources', () => {
  it('make every AWS SDK client and secrets provider through awsSdkClient', () => {
    // Arrange: the handlers', the command's and the CDK app's sources.
    const made = /new\s+(\w+Client|SecretsProvider)\s*\(/g;
    // The provider there is handed a client made by awsSdkClient.
    const allowed = new Set(['lib/stores/aws-client-config.ts', 'lambdas/private/secrets-provider.ts']);
    const sdkClients =
      /^(DynamoDB|S3|SFN|SNS|SecretsManager|CloudWatch\w*|Lambda|STS|EventBridge|Scheduler)Client$|^SecretsProvider$/;

    // Act
    const offenders = sourceFiles(['lib', 'lambdas', 'bin'])
      .filter((file) => !allowed.has(file))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(made)]
          .map((m) => m[1] ?? '')
          .filter((name) => sdkClients.test(name))
          .map((name) => `${file}: new ${name}(`),
      );

    // Assert
    expect(offenders).toEqual([]);
  });
});

function sourceFiles(roots: readonly string[]): string[] {
  return roots.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(root, f)),
  );
}
