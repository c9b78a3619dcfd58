/**
 * Step Functions and Secrets Manager endpoints on 127.0.0.1 for the real SDK clients
 * (`AWS_ENDPOINT_URL_SFN`, `AWS_ENDPOINT_URL_SECRETS_MANAGER`), so the handlers' own clients, and
 * the IAM check's middleware on them, run. Both services speak the AWS JSON protocol: a POST whose
 * `X-Amz-Target` names the operation (`AWSStepFunctions.SendTaskSuccess`,
 * `secretsmanager.GetSecretValue`), a JSON body, and an error as `{"__type", "message"}` with a
 * 400 (the services' API references, "Common Errors"). Only the operations given are served.
 */
import { createServer } from 'node:http';
import type { LocalTaskTokenCallbacks } from '../../../lib/engines/local/task-token-callbacks';
import { closeServer, listenOnLoopback } from '../../fixtures/loopback';

type Input = Readonly<Record<string, unknown>>;
/** One operation: the request's JSON in, the response's out; a thrown error's `name` is its `__type`. */
export type JsonOperation = (input: Input) => unknown;

/** A running endpoint. */
export interface FakeJsonServices {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The operations called, as `X-Amz-Target`, in order. */
  readonly called: string[];
  close(): Promise<void>;
}

/** An error the way the service names it (`ResourceNotFoundException`, `TaskTimedOut`). */
function serviceError(type: string, message: string): Error {
  return Object.assign(new Error(message), { name: type });
}

/** Serves `operations`, by `X-Amz-Target`, on a port the OS picks. */
export async function startFakeJsonServices(
  operations: Readonly<Record<string, JsonOperation>>,
): Promise<FakeJsonServices> {
  const called: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const contentType = String(req.headers['content-type'] ?? 'application/x-amz-json-1.0');
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': contentType });
        res.end(JSON.stringify(body));
      };
      const operation = operations[target];
      if (operation === undefined) {
        answer(400, { __type: 'UnknownOperationException', message: `not served here: ${target}` });
        return;
      }
      called.push(target);
      try {
        answer(200, operation(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Input) ?? {});
      } catch (error) {
        const { name, message } = error instanceof Error ? error : new Error(String(error));
        answer(400, { __type: name, message });
      }
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    called,
    close: () => closeServer(server),
  };
}

/**
 * `SendTaskSuccess` completing the local engine's task tokens, as Step Functions completes an
 * execution's (a token no longer waited on is `TaskTimedOut`). The endpoint sends nothing else.
 */
export function stepFunctionsAnswering(callbacks: LocalTaskTokenCallbacks): Record<string, JsonOperation> {
  return {
    'AWSStepFunctions.SendTaskSuccess': (i) =>
      callbacks.sendTaskSuccess(String(i['taskToken']), String(i['output'])),
  };
}

/** `GetSecretValue` of `secrets` (string values, by complete ARN). */
export function secretsManagerServing(
  secrets: Readonly<Record<string, string>>,
): Record<string, JsonOperation> {
  return {
    'secretsmanager.GetSecretValue': (i) => {
      const arn = String(i['SecretId']);
      const value = secrets[arn];
      if (value === undefined)
        throw serviceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      const name = arn.replace(/^.*:secret:/, '').replace(/-[A-Za-z0-9]{6}$/, '');
      return { ARN: arn, Name: name, SecretString: value, VersionId: 'v1', VersionStages: ['AWSCURRENT'] };
    },
  };
}
