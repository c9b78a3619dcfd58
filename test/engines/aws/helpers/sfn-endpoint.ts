/**
 * A Step Functions endpoint on 127.0.0.1 for the real command in a subprocess
 * (`AWS_ENDPOINT_URL_SFN`): the AWS JSON 1.0 protocol the SDK speaks (`POST /`,
 * `X-Amz-Target: AWSStepFunctions.<Operation>`, JSON bodies, timestamps in epoch seconds, errors
 * as a 400 with `__type`), served from a {@link FakeStepFunctions}. Signatures are not checked:
 * the fake credentials only have to be well-formed. A `drop` fault closes the connection
 * without an answer after the call took effect.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openedAroundEach } from '../../../fixtures/opened-around';
import { FakeSfnError, FakeStepFunctions, type SfnOperation } from './fake-step-functions';

const OPERATIONS = new Set<SfnOperation>([
  'StartExecution',
  'GetExecutionHistory',
  'StopExecution',
  'SendTaskSuccess',
]);

/** JSON with `Date`s as epoch seconds, as AWS JSON 1.0 writes timestamps. */
const toWire = (value: unknown): string =>
  JSON.stringify(value, function (this: Record<string, unknown>, key, v) {
    const raw = this[key];
    return raw instanceof Date ? raw.getTime() / 1000 : v;
  });

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** A running endpoint. */
export interface SfnEndpoint {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `fake` on 127.0.0.1 (a port the OS picks). */
export async function startSfnEndpoint(fake: FakeStepFunctions): Promise<SfnEndpoint> {
  const server = createServer((req, res) => {
    void (async () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = target.replace(/^AWSStepFunctions\./, '') as SfnOperation;
      const input = await bodyOf(req);
      if (!OPERATIONS.has(operation)) {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(toWire({ __type: 'UnknownOperationException', message: `not served here: ${target}` }));
        return;
      }
      try {
        const answer = fake.call(operation, input);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(toWire(answer));
      } catch (error) {
        if (!(error instanceof FakeSfnError)) throw error;
        if (error.fault.transport === 'drop') {
          req.socket.destroy();
          return;
        }
        res.writeHead(400, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-errortype': error.fault.name,
        });
        res.end(toWire({ __type: error.fault.name, message: error.fault.message }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fake Step Functions behind its endpoint on 127.0.0.1, fresh for each test. */
export function sfnEndpointPerTest(): { readonly fake: FakeStepFunctions; readonly endpoint: SfnEndpoint } {
  return openedAroundEach(
    async () => {
      const fake = new FakeStepFunctions();
      return { fake, endpoint: await startSfnEndpoint(fake) };
    },
    ({ endpoint }) => endpoint.close(),
  );
}

/**
 * A command's AWS environment for endpoints on 127.0.0.1 (`AWS_ENDPOINT_URL_*` names them): fake
 * credentials in `region`, and nothing read from the machine's AWS config or instance metadata.
 */
export function localAwsEnv(endpoints: NodeJS.ProcessEnv, region: string): NodeJS.ProcessEnv {
  return {
    ...endpoints,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: region,
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}
