/**
 * The one configuration every AWS SDK client of this project is created with: explicit connection
 * and request timeouts, and a timeout that names the service, the operation and the address it
 * could not reach. Without them a function in a VPC that has no route to an AWS API (no VPC
 * endpoint, no NAT) hangs until its own Lambda timeout, then Step Functions retries the hang; with
 * them it fails within seconds with an error that says which endpoint is missing
 * (docs/deploying.md, "Running in a VPC").
 */

/** How long an AWS SDK request may wait for a connection, then for the start of its answer. */
export interface AwsTimeouts {
  /** Milliseconds to open the TCP (and TLS) connection. */
  readonly connectionTimeoutMs: number;
  /** Milliseconds from sending the request to the answer's headers. */
  readonly requestTimeoutMs: number;
}

/**
 * The Lambda handlers' timeouts. AWS APIs reached through a VPC endpoint or NAT connect in
 * milliseconds and answer in well under a second; with the SDK's three attempts, a missing route
 * fails in about 10 s, inside the shortest function timeout (30 s).
 */
export const LAMBDA_AWS_TIMEOUTS: AwsTimeouts = { connectionTimeoutMs: 3_000, requestTimeoutMs: 10_000 };

/**
 * A terminal's timeouts (`-engine=aws`, `questions`, `approve`, `deny`): laptops on Wi-Fi or a VPN
 * connect more slowly, and the command retries a quiet connection instead of hanging on it.
 */
export const TERMINAL_AWS_TIMEOUTS: AwsTimeouts = { connectionTimeoutMs: 5_000, requestTimeoutMs: 30_000 };

/**
 * The SDK's `requestHandler` options for `timeouts`. `throwOnRequestTimeout` matters: without it
 * the SDK's handler only logs a warning when `requestTimeout` passes and goes on waiting.
 */
export function awsClientConfig(timeouts: AwsTimeouts = LAMBDA_AWS_TIMEOUTS) {
  return {
    requestHandler: {
      connectionTimeout: timeouts.connectionTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  } as const;
}

/** What the naming middleware reads of an SDK call's context. */
interface CallContext {
  readonly clientName?: string;
  readonly commandName?: string;
  readonly endpointV2?: { readonly url?: URL };
}

/**
 * The part of an AWS SDK v3 client {@link nameAwsTimeouts} uses, spelled out here so this module's
 * types depend on no SDK package. Each client's `add` takes middleware typed with its own
 * commands' inputs and outputs; this one passes any through, so it is added as `never`.
 */
export interface AwsMiddlewareHost {
  readonly middlewareStack: {
    add(middleware: never, options: { step: 'initialize'; name: string; override: boolean }): void;
  };
}

type Handler = (args: unknown) => Promise<unknown>;

/** `DynamoDBClient` → `DynamoDB`: the service as an operator knows it. */
const serviceOf = (clientName: string | undefined) => (clientName ?? 'AWS').replace(/Client$/, '');

/**
 * Makes every timeout of `client`'s calls say what timed out: `DynamoDB GetItem to
 * https://dynamodb.eu-west-1.amazonaws.com/ timed out: <the SDK's reason>`, with the hint for a
 * function in a VPC. The error stays the SDK's (name `TimeoutError`, its code and metadata), so
 * it is still retried as a network error. Returns `client`.
 */
export function nameAwsTimeouts<C extends AwsMiddlewareHost>(client: C): C {
  const naming =
    (next: Handler, context: CallContext): Handler =>
    async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') {
          const where = context.endpointV2?.url === undefined ? '' : ` to ${context.endpointV2.url.href}`;
          error.message =
            `${serviceOf(context.clientName)} ${context.commandName?.replace(/Command$/, '') ?? 'call'}${where} timed out: ${error.message}` +
            ' (from a VPC, this is what a missing VPC endpoint or NAT route looks like: see docs/deploying.md, "Running in a VPC")';
        }
        throw error;
      }
    };
  client.middlewareStack.add(naming as never, {
    step: 'initialize',
    name: 'nomadRestartNameTimeouts',
    override: true,
  });
  return client;
}

/**
 * An AWS SDK v3 client made the one way: `config` plus {@link awsClientConfig}'s timeouts, with
 * {@link nameAwsTimeouts}. Every client of the handlers and the command is made here
 * (`test/stores/aws-client-config.test.ts` checks the sources for any other `new …Client(`).
 */
export function awsSdkClient<C extends AwsMiddlewareHost, Config extends object>(
  Client: new (config: Config) => C,
  config: Config,
  timeouts: AwsTimeouts = LAMBDA_AWS_TIMEOUTS,
): C {
  return nameAwsTimeouts(new Client({ ...config, ...awsClientConfig(timeouts) }));
}
