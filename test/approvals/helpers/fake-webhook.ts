/**
 * A fake webhook receiver on 127.0.0.1: records each delivery (headers and JSON body) and
 * answers 200, or the status a test sets to play a receiver that is down.
 */
import { createServer, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from '../../fixtures/loopback';

/** One recorded delivery. */
export interface WebhookRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body, as it was signed. */
  readonly body: string;
}

/** A running fake. */
export interface FakeWebhook {
  readonly url: string;
  readonly requests: WebhookRequest[];
  /** The status every delivery gets from now on. @default 200 */
  status: number;
  close(): Promise<void>;
}

/** Starts the fake. */
export async function startFakeWebhook(): Promise<FakeWebhook> {
  const requests: WebhookRequest[] = [];
  const fake: { status: number } = { status: 200 };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.statusCode = fake.status;
    response.end();
  });
  const port = await listenOnLoopback(server);
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () => closeServer(server),
  });
}
