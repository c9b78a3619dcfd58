/**
 * An SNS endpoint on 127.0.0.1 for the real SNS client (`AWS_ENDPOINT_URL_SNS`): `Publish` only,
 * in the AWS Query protocol the SDK speaks for SNS (a form-encoded POST, an XML answer; the SNS
 * API Reference, "Publish"). It keeps what was published; it delivers nothing.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { closeServer, listenOnLoopback } from '../../fixtures/loopback';

/** One published message. */
export interface Published {
  readonly topicArn: string;
  readonly subject: string;
  readonly message: string;
}

/** A running endpoint. */
export interface FakeSns {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly published: Published[];
  close(): Promise<void>;
}

const XMLNS = 'http://sns.amazonaws.com/doc/2010-03-31/';

/** Serves Publish on a port the OS picks. */
export async function startFakeSns(): Promise<FakeSns> {
  const published: Published[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      if (form.get('Action') !== 'Publish') {
        res.writeHead(400, { 'content-type': 'text/xml' });
        res.end(
          `<ErrorResponse xmlns="${XMLNS}"><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>not served here: ${form.get('Action')}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`,
        );
        return;
      }
      published.push({
        topicArn: form.get('TopicArn') ?? '',
        subject: form.get('Subject') ?? '',
        message: form.get('Message') ?? '',
      });
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(
        `<PublishResponse xmlns="${XMLNS}"><PublishResult><MessageId>${randomUUID()}</MessageId></PublishResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></PublishResponse>`,
      );
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    published,
    close: () => closeServer(server),
  };
}
